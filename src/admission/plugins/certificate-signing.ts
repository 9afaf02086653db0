/**
 * CertificateSigning: storing a certificate on a request (an update of
 * `certificatesigningrequests/status` that changes `status.certificate`)
 * needs verb `sign` on the request's signer (`signers` in the certificates
 * group, by name or `<domain>/*`); so does one that changes the conditions, as
 * on the real server. Status writes that change neither pass.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginFactory } from '../types';
import { goQuote } from '../../machinery/go-format';
import { deepEqual } from '../../machinery/json';
import { admissionForbidden } from './support/errors';
import { authorizedForSigner, signerNameOf } from './support/signer-authorization';

function conditionsOf(object: KubeObject | undefined): unknown {
  return (object?.status as { conditions?: unknown } | undefined)?.conditions;
}

function certificateOf(object: KubeObject | undefined): string {
  const status = object?.status as { certificate?: unknown } | undefined;
  return typeof status?.certificate === 'string' ? status.certificate : '';
}

export const certificateSigning: AdmissionPluginFactory = (deps) => {
  const group = deps.profile.suffixed('certificates');
  return {
    name: 'CertificateSigning',
    operations: ['UPDATE'],
    async validate(a) {
      if (a.subresource !== 'status' || a.group !== group || a.resource !== 'certificatesigningrequests')
        return;
      // Conditions count as much as the certificate: a Failed condition is the signer's verdict too.
      if (
        certificateOf(a.object) === certificateOf(a.oldObject) &&
        deepEqual(conditionsOf(a.object), conditionsOf(a.oldObject))
      )
        return;
      // The stored signer is the one that counts (the field is immutable anyway).
      const signerName = signerNameOf(a.oldObject);
      if (await authorizedForSigner(deps.authorizer, deps.profile, a.user, 'sign', signerName)) return;
      throw admissionForbidden(
        a,
        `user not permitted to sign requests with signerName ${goQuote(signerName)}`,
      );
    },
  };
};
