/**
 * CertificateApproval: approving or denying a certificate request (an
 * update of `certificatesigningrequests/approval`) needs verb `approve` on
 * the request's signer (`signers` in the certificates group, by name or
 * `<domain>/*`). The new object's signer is checked, so changing the signer
 * name cannot borrow another signer's permission.
 */

import type { AdmissionPluginFactory } from '../types';
import { goQuote } from '../../machinery/go-format';
import { admissionForbidden } from './support/errors';
import { authorizedForSigner, signerNameOf } from './support/signer-authorization';

export const certificateApproval: AdmissionPluginFactory = (deps) => {
  const group = deps.profile.suffixed('certificates');
  return {
    name: 'CertificateApproval',
    operations: ['UPDATE'],
    async validate(a) {
      if (a.subresource !== 'approval' || a.group !== group || a.resource !== 'certificatesigningrequests')
        return;
      const signerName = signerNameOf(a.object);
      if (await authorizedForSigner(deps.authorizer, deps.profile, a.user, 'approve', signerName)) return;
      throw admissionForbidden(
        a,
        `user not permitted to approve requests with signerName ${goQuote(signerName)}`,
      );
    },
  };
};
