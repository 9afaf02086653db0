/** Lesson 18: certificate signing requests — a request to a signer, approval, the issued certificate, used as an identity. */

import type { LessonDocument } from '../format';
import { check, jsonMerge, request, sent, terminalLink } from './common';

const ns = 'learn-csr';
const csrs = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const user = 'learn-jane';

/*
 * "Show me" needs a key pair and a request signed by it, and a lesson is data: these were made once with
 * `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256` and
 * `openssl req -new -subj "/CN=learn-jane/O=learn-team"`. The key is published on purpose — it only ever
 * identifies learn-jane to a sandbox that signed its certificate. A learner's own request (the Identity view's
 * form) gets a fresh key that never leaves the page.
 */
const requestPEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHkMIGMAgEAMCoxEzARBgNVBAMMCmxlYXJuLWphbmUxEzARBgNVBAoMCmxlYXJu
LXRlYW0wWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAR8LkC12Bcd7IUqDMUWJF2j
3wvfAATW98la9qjZjqLw/bA24U5m5X78KGqFHT4LPN5CqvLRdmrV3YvTmp2mVZ7f
oAAwCgYIKoZIzj0EAwIDRwAwRAIgatDzMr83C6jb0ELByv82/k1pyeuiR/6p9ckW
HMl9AnUCICRid964Un9rjfxO3jc0/jlZ0RXE+U4Spv4BSCnBg6Rc
-----END CERTIFICATE REQUEST-----
`;
const keyPEM = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4HoAcOAM/F5LI1KI
xpgO2mizTB+8A6ct2mBPDYCOSP2hRANCAAR8LkC12Bcd7IUqDMUWJF2j3wvfAATW
98la9qjZjqLw/bA24U5m5X78KGqFHT4LPN5CqvLRdmrV3YvTmp2mVZ7f
-----END PRIVATE KEY-----
`;

const csrObject = {
  apiVersion: 'certificates.orch.io/v1',
  resource: 'certificatesigningrequests',
  name: user,
};

export const certificates: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'certificates',
  title: 'Certificates from a signer',
  part: 'Who may do what',
  minutes: 5,
  goal: 'Ask a signer for a client certificate with a CertificateSigningRequest, approve it, read what was issued, and be recognised by it.',
  sections: [
    {
      text: 'A client certificate names its user in the subject’s common name (CN) and its groups in the organizations (O). To get one signed by the cluster, a client makes a key pair, writes a PKCS#10 request with that subject, and submits it as a CertificateSigningRequest naming a signer: `orch.io/apiserver-client` issues certificates the API server accepts as client credentials. The request also lists its `usages` (that signer wants `client auth`) and may ask for a shorter lifetime with `expirationSeconds` (at least 600).\n\nNothing is signed until someone allowed to `approve` for that signer adds the Approved condition through the `approval` subresource; a denied request is never signed. Then the signer puts the certificate in `status.certificate`. The private key never travels: only the requester can use the certificate.',
      spec: ['auth-csr', 'auth-authentication'],
    },
  ],
  start: { namespaces: [ns] },
  cleanup: [csrObject],
  steps: [
    {
      id: 'submit',
      title: 'Submit a request',
      text: `In Identity → Certificate signing, request a certificate for user \`${user}\` in group \`learn-team\`, request name \`${user}\`, from the signer \`orch.io/apiserver-client\`. The form makes the key pair in this page and submits the request.`,
      open: [
        { view: 'identity', label: 'Identity → Certificate signing', params: { section: 'certificates' } },
      ],
      hints: [
        'The form checks the signer’s rules as you type: this signer wants the `client auth` usage.',
        `With openssl: \`openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=${user}/O=learn-team"\`, then base64 the PEM into \`spec.request\`.`,
      ],
      checks: [
        check(
          `${user} asks the API server client signer for client auth`,
          { object: csrObject },
          "object != null && object.spec.signerName == 'orch.io/apiserver-client' && 'client auth' in object.spec.usages",
        ),
      ],
      showMe: [
        request('POST', csrs, {
          body: {
            apiVersion: 'certificates.orch.io/v1',
            kind: 'CertificateSigningRequest',
            metadata: { name: user },
            spec: {
              request: btoa(requestPEM),
              signerName: 'orch.io/apiserver-client',
              usages: ['digital signature', 'client auth'],
              expirationSeconds: 86400,
            },
          },
        }),
      ],
    },
    {
      id: 'approve',
      title: 'Approve it',
      text: `Approve \`${user}\` (the Approve button of its detail, as admin). The approval is an update of the \`approval\` subresource that adds the condition \`Approved\`.`,
      hints: [
        'Act as alice and try: she may not approve for this signer, and the answer says which permission is missing.',
      ],
      open: [terminalLink('kubectl certificate approve learn-jane')],
      checks: [
        check(
          `${user} is approved`,
          { object: csrObject },
          "object != null && has(object.status.conditions) && object.status.conditions.exists(c, c.type == 'Approved' && c.status == 'True')",
        ),
      ],
      showMe: [
        request('PATCH', `${csrs}/${user}/approval`, {
          contentType: jsonMerge,
          body: {
            status: {
              conditions: [
                {
                  type: 'Approved',
                  status: 'True',
                  reason: 'LessonApproved',
                  message: 'approved in the certificates lesson',
                },
              ],
            },
          },
        }),
      ],
    },
    {
      id: 'issued',
      title: 'The signed certificate',
      text: 'The signer issues the certificate into `status.certificate` a moment after the approval. Open the request’s detail to read it decoded: subject, issuer (the cluster CA), validity, usages.',
      checks: [
        check(
          `${user} holds a certificate`,
          { object: csrObject },
          "object != null && has(object.status.certificate) && object.status.certificate != ''",
        ),
      ],
      showMe: [request('GET', `${csrs}/${user}`)],
    },
    {
      id: 'use',
      title: 'Be recognised by it',
      text: `Press **Use as identity** in the request’s detail: the app now signs every request with your key and certificate. List the Secrets of \`${ns}\`: the answer is 403, and its message names \`${user}\` — the server knew you by the certificate, and ${user} was granted nothing.`,
      open: [{ view: 'explorer', label: `Explorer on Secrets in ${ns}`, params: { kind: 'v1/secrets', ns } }],
      hints: ['Switch back to admin with the identity chip in the header afterwards.'],
      checks: [
        sent(
          `A request was refused to ${user}`,
          `requests.exists(r, r.status == 403 && r.message.contains('User "${user}"') && !('impersonate-user' in r.requestHeaders))`,
        ),
      ],
      showMe: [
        request(
          'GET',
          `${csrs}/${user}`,
          {},
          { capture: { certificate: 'response.body.status.certificate' } },
        ),
        request(
          'GET',
          `/api/v1/namespaces/${ns}/secrets`,
          {},
          { withCertificate: { certificate: '${certificate}', key: keyPEM }, expectStatus: [403] },
        ),
      ],
    },
  ],
};
