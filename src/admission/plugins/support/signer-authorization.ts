/**
 * Whether a user may act for a certificate signer (the real
 * `certificates.IsAuthorizedForSignerName`): the verb (`approve`, `sign`,
 * `attest`) on resource `signers` of the certificates group, named either
 * exactly after the signer or after its domain with a wildcard path
 * (`<domain>/*`), so one grant can cover every signer of a domain.
 */

import type { UserInfo } from '../../../api/authn';
import type { KubeObject } from '../../../api/meta';
import type { Authorizer, AuthorizationAttributes } from '../../../auth/authorizer';
import type { NamingProfile } from '../../../machinery/naming';

export async function authorizedForSigner(
  authorizer: Authorizer,
  profile: NamingProfile,
  user: UserInfo,
  verb: string,
  signerName: string,
): Promise<boolean> {
  const attributes = (name: string): AuthorizationAttributes => ({
    user,
    verb,
    resourceRequest: true,
    apiGroup: profile.suffixed('certificates'),
    apiVersion: '*',
    resource: 'signers',
    subresource: '',
    namespace: '',
    name,
    path: '',
  });
  if ((await authorizer.authorize(attributes(signerName))).decision === 'Allow') return true;
  const wildcard = `${signerName.split('/')[0] ?? ''}/*`;
  return (await authorizer.authorize(attributes(wildcard))).decision === 'Allow';
}

/** The `spec.signerName` of a CertificateSigningRequest or ClusterTrustBundle ('' when unset). */
export function signerNameOf(object: KubeObject | undefined): string {
  const spec = object?.spec as { signerName?: unknown } | undefined;
  return typeof spec?.signerName === 'string' ? spec.signerName : '';
}
