/**
 * `certificatesigningrequests/<name>/status`: a signer stores the issued
 * certificate (or a Failed condition). The CertificateSigning admission
 * plugin checks `sign` on the signer.
 */

import type { Getter, Updater } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import { csrStatusStrategy } from './strategy';

export function statusStorage(ctx: StoredKindContext): Getter & Updater {
  const store = ctx.store.withStrategy(csrStatusStrategy(ctx.rt));
  return {
    get: (scope, name, options) => store.get(scope, name, options),
    update: (scope, name, objInfo, options) => store.update(scope, name, objInfo, options),
  };
}
