/**
 * CertificateSubjectRestriction: a certificate request to the API server
 * client signer (`orch.io/apiserver-client`; `kubernetes.io/kube-apiserver-client`
 * under the kubernetes profile) may not ask for the `system:masters`
 * organization — a certificate with it would bypass authorization, so no
 * approver should be able to hand one out by mistake.
 */

import { goPemDecode, latin1 } from '../../auth/pki/go-pem';
import { fromBase64, ownBytes } from '../../auth/pki/pem';
import { x509, x509Library } from '../../auth/pki/x509';
import { policyNames } from '../../auth/policy/names';
import type { AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';
import { signerNameOf } from './support/signer-authorization';

const mastersGroup = 'system:masters';

/**
 * The subject organizations of a base64-encoded PEM PKCS#10 request (Go's `ParseCSR` error texts where it has
 * one); the X.509 library must be loaded.
 */
export function requestOrganizations(request: string): string[] {
  // Go's PEM reading, as the registry and the signers: all three must look at the same request.
  const block = goPemDecode(latin1(fromBase64(request)))?.block;
  if (block === undefined || block.type !== 'CERTIFICATE REQUEST')
    throw new Error('PEM block type must be CERTIFICATE REQUEST');
  return new (x509().Pkcs10CertificateRequest)(ownBytes(block.bytes)).subjectName.getField('O');
}

export const certificateSubjectRestriction: AdmissionPluginFactory = (deps) => {
  const group = deps.profile.suffixed('certificates');
  const clientSigner = policyNames(deps.profile).signers.apiserverClient;
  return {
    name: 'CertificateSubjectRestriction',
    operations: ['CREATE'],
    async validate(a) {
      if (a.group !== group || a.resource !== 'certificatesigningrequests' || a.subresource !== '') return;
      const signerName = signerNameOf(a.object);
      if (signerName !== clientSigner) return;
      const request = (a.object?.spec as { request?: unknown } | undefined)?.request;
      await x509Library.load();
      let organizations: string[];
      try {
        organizations = requestOrganizations(typeof request === 'string' ? request : '');
      } catch (e) {
        throw admissionForbidden(a, `failed to parse CSR: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (organizations.includes(mastersGroup))
        throw admissionForbidden(a, `use of ${signerName} signer with ${mastersGroup} group is not allowed`);
      return Promise.resolve();
    },
  };
};
