/**
 * The workload kinds' checks, loaded with the first write of one
 * (workload-checks.lazy.ts). A kind validates through `withWorkloadChecks`,
 * its strategy's asynchronous step: these are its only own checks, so its
 * errors keep their place after the generic ones, on create, update and
 * `/status` alike.
 */

import type { KubeObject } from '../../api/meta';
import type { FieldError } from '../../machinery/field-errors';
import { LazyModule } from '../../machinery/lazy-module';
import type { KindHooks, StrategyContext } from '../rest/strategy';
import type * as WorkloadChecks from './workload-checks.lazy';

export type Checks = typeof WorkloadChecks;

export const workloadChecks = new LazyModule<Checks>(
  'workload-checks',
  () => import('./workload-checks.lazy'),
);

/** A kind's `validateAsync` from its checks (`old` absent on create). */
export function withWorkloadChecks(
  validate: (
    checks: Checks,
    obj: KubeObject,
    old: KubeObject | undefined,
    ctx: StrategyContext,
  ) => FieldError[],
): NonNullable<KindHooks['validateAsync']> {
  return async (obj, old, ctx) => validate(await workloadChecks.load(), obj, old, ctx);
}
