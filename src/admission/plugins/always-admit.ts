/**
 * AlwaysAdmit: admits every request (deprecated upstream; it exists so a
 * configuration naming it starts). It has both halves, like the real
 * plugin, so the trace shows it was consulted.
 */

import type { AdmissionPluginFactory } from '../types';

export const alwaysAdmit: AdmissionPluginFactory = () => ({
  name: 'AlwaysAdmit',
  admit: () => Promise.resolve(undefined),
  validate: () => Promise.resolve(),
});
