/**
 * ClusterTrustBundleAttest: publishing a trust bundle linked to a signer
 * (creating or changing a ClusterTrustBundle with `spec.signerName`) needs
 * verb `attest` on that signer (`signers` in the certificates group, by
 * name or `<domain>/*`). Inert unless the ClusterTrustBundle feature gate is
 * on (the kind is alpha in v1.27 and not served otherwise). Updates that
 * only touch owner references or finalizers pass, so the garbage collector
 * and storage migration never need the permission.
 */

import type { KubeObject } from '../../api/meta';
import { goQuote } from '../../machinery/go-format';
import { deepEqual } from '../../machinery/json';
import type { AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';
import { authorizedForSigner, signerNameOf } from './support/signer-authorization';

/** True when `next` differs from `previous` at most in owner references and finalizers. */
export function onlyGarbageCollectionFields(next: KubeObject, previous: KubeObject): boolean {
  const strip = (o: KubeObject, meta: KubeObject): KubeObject => {
    const copy = structuredClone(o);
    const m = { ...(copy.metadata ?? {}) };
    m.ownerReferences = meta.metadata?.ownerReferences;
    m.finalizers = meta.metadata?.finalizers;
    // Bookkeeping the server itself rewrites on every write.
    delete m.resourceVersion;
    delete m.managedFields;
    copy.metadata = m;
    return JSON.parse(JSON.stringify(copy)) as KubeObject;
  };
  return deepEqual(strip(previous, next), strip(next, next));
}

export const clusterTrustBundleAttest: AdmissionPluginFactory = (deps) => {
  const group = deps.profile.suffixed('certificates');
  const enabled = deps.featureGates['ClusterTrustBundle'] === true;
  return {
    name: 'ClusterTrustBundleAttest',
    operations: ['CREATE', 'UPDATE'],
    async validate(a) {
      if (!enabled || a.group !== group || a.resource !== 'clustertrustbundles' || a.subresource !== '')
        return;
      if (a.object === undefined) return;
      // The new object's signer counts: validation refuses changing it.
      const signerName = signerNameOf(a.object);
      if (signerName === '') return;
      if (
        a.operation === 'UPDATE' &&
        a.oldObject !== undefined &&
        onlyGarbageCollectionFields(a.object, a.oldObject)
      )
        return;
      if (await authorizedForSigner(deps.authorizer, deps.profile, a.user, 'attest', signerName)) return;
      throw admissionForbidden(a, `user not permitted to attest for signerName ${goQuote(signerName)}`);
    },
  };
};
