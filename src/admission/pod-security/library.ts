/** PodSecurity's checks, loaded by the plugin with the first write that needs them (pod-security-checks.lazy.ts). */

import { LazyModule } from '../../machinery/lazy-module';
import type * as PodSecurityChecks from './pod-security-checks.lazy';

export const podSecurityChecks = new LazyModule<typeof PodSecurityChecks>(
  'pod-security-checks',
  () => import('./pod-security-checks.lazy'),
);
