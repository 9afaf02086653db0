/**
 * AlwaysDeny: refuses every request that reaches admission (creates,
 * updates, deletes, connects), in both phases, with the real 403 message.
 * Only useful for testing; it runs last in the recommended order.
 */

import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';

const deny = (a: AdmissionAttributes) =>
  Promise.reject(admissionForbidden(a, 'admission control is denying all modifications'));

export const alwaysDeny: AdmissionPluginFactory = () => ({
  name: 'AlwaysDeny',
  admit: deny,
  validate: deny,
});
