/** Lesson 19: bootstrap tokens — the token Secret, authenticating with it, cluster-info and its signature, expiry. */

import type { LessonDocument } from '../format';
import { check, consoleLink, jsonMerge, request, sent } from './common';

const system = 'orch-system';
const tokenId = 'learn1';
const tokenSecret = '0123456789abcdef';
const token = `${tokenId}.${tokenSecret}`;
const secretName = `bootstrap-token-${tokenId}`;
const clusterInfoPath = '/api/v1/namespaces/orch-public/configmaps/cluster-info';
const signatureKey = `jws-orchconfig-${tokenId}`;

const secretRef = { apiVersion: 'v1', resource: 'secrets', namespace: system, name: secretName };
const clusterInfo = {
  apiVersion: 'v1',
  resource: 'configmaps',
  namespace: 'orch-public',
  name: 'cluster-info',
};

const secretYaml = `apiVersion: v1
kind: Secret
metadata:
  name: ${secretName}
  namespace: ${system}
type: bootstrap.orch.io/token
stringData:
  description: a token for the bootstrap lesson
  token-id: ${tokenId}
  token-secret: ${tokenSecret}
  usage-bootstrap-authentication: "true"
  usage-bootstrap-signing: "true"
  auth-extra-groups: system:bootstrappers:learn
`;

export const bootstrapTokens: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'bootstrap-tokens',
  title: 'Bootstrap tokens and cluster-info',
  part: 'Who may do what',
  minutes: 4,
  goal: 'Make a bootstrap token, authenticate with it, find its signature on the public cluster-info, and see expiry take it away.',
  sections: [
    {
      text: 'A new machine joining a cluster has no credentials yet. A bootstrap token gives it just enough: a short shared secret, written `<id>.<secret>` (6 and 16 characters of `[a-z0-9]`), kept as a Secret of type `bootstrap.orch.io/token` named `bootstrap-token-<id>` in `orch-system`. With `usage-bootstrap-authentication` it works as a bearer token for the user `system:bootstrap:<id>`, in the group `system:bootstrappers` plus any `auth-extra-groups` (each must start with `system:bootstrappers:`). An `expiration` ends it.\n\nThe joining machine must also trust the server it talks to. The ConfigMap `cluster-info` in `orch-public` holds the server’s address and CA, and anyone may read it, unauthenticated. For each token with `usage-bootstrap-signing`, the bootstrap signer adds `jws-orchconfig-<id>`: a detached signature of that configuration keyed by the token, so a machine that knows the token can check that the configuration it read is genuine.',
      spec: ['auth-bootstrap', 'auth-authentication'],
    },
  ],
  cleanup: [secretRef],
  steps: [
    {
      id: 'token',
      title: 'Make a token',
      text: `Create the Secret \`${secretName}\` in \`${system}\` (the Editor link has it): token id \`${tokenId}\`, secret \`${tokenSecret}\`, usable for authentication and signing.`,
      open: [{ view: 'editor', label: 'Editor with the token Secret', params: { text: secretYaml } }],
      hints: ['`stringData` takes plain text; the server stores it base64-encoded under `data`.'],
      checks: [
        check(
          `${secretName} is a bootstrap token that may sign`,
          { object: secretRef },
          "object != null && object.type == 'bootstrap.orch.io/token' && 'usage-bootstrap-signing' in object.data",
        ),
      ],
      showMe: [
        request('POST', `/api/v1/namespaces/${system}/secrets`, {
          body: {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: secretName },
            type: 'bootstrap.orch.io/token',
            stringData: {
              'token-id': tokenId,
              'token-secret': tokenSecret,
              'usage-bootstrap-authentication': 'true',
              'usage-bootstrap-signing': 'true',
              'auth-extra-groups': 'system:bootstrappers:learn',
            },
          },
        }),
      ],
    },
    {
      id: 'authenticate',
      title: 'Authenticate with it',
      text: `Send a request with the header \`Authorization: Bearer ${token}\`, for instance \`GET /api/v1/namespaces/default/pods\`. The server knows you as \`system:bootstrap:${tokenId}\`; nobody granted that user pods, so the answer is 403 naming it.`,
      open: [
        consoleLink('GET', '/api/v1/namespaces/default/pods', 'Console with the token header', {
          headers: `Authorization: Bearer ${token}`,
        }),
      ],
      hints: [
        'A token that does not match its Secret is a 401: the server does not know who you are at all.',
      ],
      checks: [
        sent(
          `A request was refused to system:bootstrap:${tokenId}`,
          `requests.exists(r, r.status == 403 && r.message.contains('"system:bootstrap:${tokenId}"'))`,
        ),
      ],
      showMe: [
        request(
          'GET',
          '/api/v1/namespaces/default/pods',
          { headers: { authorization: `Bearer ${token}` } },
          { expectStatus: [403] },
        ),
      ],
    },
    {
      id: 'cluster-info',
      title: 'Read cluster-info without credentials',
      identity: 'anonymous',
      text: `As anonymous, read \`GET ${clusterInfoPath}\`. Its \`orchconfig\` names this server and its CA; \`${signatureKey}\` is the signer’s signature made with your token.`,
      open: [consoleLink('GET', clusterInfoPath)],
      hints: [
        'The signature is `<header>..<signature>`: the configuration itself is the detached payload, base64url-encoded, and the key is the full token.',
      ],
      checks: [
        check(
          `cluster-info carries the signature of ${tokenId}`,
          { object: clusterInfo },
          `object != null && has(object.data) && '${signatureKey}' in object.data`,
        ),
        sent(
          'cluster-info was read without credentials',
          "requests.exists(r, r.path.endsWith('/configmaps/cluster-info') && r.status == 200 && !('authorization' in r.requestHeaders))",
        ),
      ],
      showMe: [request('GET', clusterInfoPath)],
    },
    {
      id: 'expire',
      title: 'Let it expire',
      text: `Give the token an \`expiration\` in the past (an RFC 3339 time under \`data\`, base64-encoded, or under \`stringData\`), or delete it. Its signature leaves cluster-info, it no longer authenticates, and the token cleaner deletes the expired Secret.`,
      checks: [
        check(
          `cluster-info no longer carries the signature of ${tokenId}`,
          { object: clusterInfo },
          `object != null && !(has(object.data) && '${signatureKey}' in object.data)`,
        ),
      ],
      showMe: [
        request('PATCH', `/api/v1/namespaces/${system}/secrets/${secretName}`, {
          contentType: jsonMerge,
          body: { data: { expiration: btoa('2020-01-01T00:00:00Z') } },
        }),
      ],
    },
  ],
};
