/**
 * `certificatesigningrequests/<name>/approval`: an approver adds the
 * Approved or Denied condition (`kubectl certificate approve|deny` PUTs the
 * whole object with one more condition). Only the conditions change; the
 * CertificateApproval admission plugin checks `approve` on the signer.
 */

import type { Getter, Updater } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import { approvalStrategy } from './strategy';

export function approvalStorage(ctx: StoredKindContext): Getter & Updater {
  const store = ctx.store.withStrategy(approvalStrategy(ctx.rt));
  return {
    get: (scope, name, options) => store.get(scope, name, options),
    update: (scope, name, objInfo, options) => store.update(scope, name, objInfo, options),
  };
}
