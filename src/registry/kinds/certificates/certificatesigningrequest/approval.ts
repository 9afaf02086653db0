/**
 * `certificatesigningrequests/<name>/approval`: an approver adds or changes
 * the Approved and Denied conditions and nothing else — spec changes and
 * every other status field (the certificate) are ignored, as the real
 * approval strategy does.
 */

import { deepClone } from '../../../../machinery/json';
import type { Getter, Updater } from '../../../rest/capabilities';
import { subresourceStrategy } from '../../../generic/strategy';
import type { StoredKindContext } from '../../types';

type CsrStatus = { conditions?: unknown };

export function approvalStorage(ctx: StoredKindContext): Getter & Updater {
  const strategy = subresourceStrategy(ctx.rt, undefined, (next, requested) => {
    const status = { ...((next.status as CsrStatus | undefined) ?? {}) };
    const conditions = (requested.status as CsrStatus | undefined)?.conditions;
    if (conditions === undefined) delete status.conditions;
    else status.conditions = deepClone(conditions);
    next.status = status;
  });
  const store = ctx.store.withStrategy(strategy);
  return {
    get: (scope, name, options) => store.get(scope, name, options),
    update: (scope, name, objInfo, options) => store.update(scope, name, objInfo, options),
  };
}
