/**
 * ServiceAccount: keeps its slot in the recommended order (after LimitRanger,
 * before NodeRestriction) and in the default-on set, but admits everything
 * for now. The service-account issue fills it: the `default` account, the
 * missing-account 403, image pull secrets and the projected token volume.
 */

import type { AdmissionPluginFactory } from '../types';

export const serviceAccount: AdmissionPluginFactory = () => ({ name: 'ServiceAccount' });
