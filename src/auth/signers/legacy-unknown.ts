/**
 * The legacy-unknown signer (`orch.io/legacy-unknown`): no rule at all, as
 * the real one keeps for compatibility with `certificates/v1beta1`. The v1
 * API refuses the name on create, so on a v1.27 server only requests kept
 * from older versions (or imported state) ever reach it.
 */

import type { RequestView } from './request';

export function validateLegacyUnknown(_request: RequestView, _usages: readonly string[]): string | undefined {
  return undefined;
}
