/** Lesson 17: service accounts, TokenRequest, TokenReview and the legacy token Secret. */

import type { LessonDocument } from '../format';
import { check, request, sent, terminalLink } from './common';

const ns = 'learn-sa';
const sa = `/api/v1/namespaces/${ns}/serviceaccounts`;

export const serviceAccounts: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'service-accounts',
  title: 'Service accounts and their tokens',
  part: 'Who may do what',
  minutes: 4,
  goal: 'Give a workload an identity, mint a short-lived token for it, check a token with a TokenReview, and see the legacy token Secret filled in.',
  sections: [
    {
      text: 'A ServiceAccount is an identity for software: requests with its token are `system:serviceaccount:<namespace>:<name>`, in groups `system:serviceaccounts` and `system:serviceaccounts:<namespace>`. Every namespace gets a `default` one.\n\nTokens are minted on demand through the `token` subresource (a TokenRequest: audiences, lifetime, optionally bound to a pod) and expire. A TokenReview asks the server to check a token and say whom it names. The older way, a Secret of type `orch.io/service-account-token` annotated with the account name, is filled with a token that never expires.',
      spec: ['auth-service-accounts', 'auth-authentication'],
    },
  ],
  start: { namespaces: [ns] },
  steps: [
    {
      id: 'create',
      title: 'Create a ServiceAccount',
      text: `Create a ServiceAccount \`builder\` in \`${ns}\`.`,
      open: [
        terminalLink('kubectl create serviceaccount builder -n learn-sa'),
        {
          view: 'editor',
          label: 'Editor with a ServiceAccount',
          params: {
            text: `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: builder\n  namespace: ${ns}\n`,
          },
        },
      ],
      checks: [
        check(
          'builder exists',
          { object: { apiVersion: 'v1', resource: 'serviceaccounts', namespace: ns, name: 'builder' } },
          'object != null',
        ),
      ],
      showMe: [
        request('POST', sa, {
          body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } },
        }),
      ],
    },
    {
      id: 'token',
      title: 'Mint a token',
      text: `Send \`POST ${sa}/builder/token\` with a TokenRequest (\`{"apiVersion": "authentication.orch.io/v1", "kind": "TokenRequest", "spec": {"expirationSeconds": 600}}\`). The answer’s \`status.token\` is the token; Identity → Service account tokens decodes one.`,
      open: [
        terminalLink('kubectl create token builder -n learn-sa'),
        { view: 'identity', label: 'Identity → Service account tokens', params: { section: 'tokens' } },
      ],
      checks: [
        sent(
          'A token was minted for builder',
          "requests.exists(r, r.method == 'POST' && r.path.endsWith('/serviceaccounts/builder/token') && r.status == 201)",
        ),
      ],
      showMe: [
        request('POST', `${sa}/builder/token`, {
          body: {
            apiVersion: 'authentication.orch.io/v1',
            kind: 'TokenRequest',
            spec: { expirationSeconds: 600 },
          },
        }),
      ],
    },
    {
      id: 'review',
      title: 'Check a token',
      text: 'Mint a token and hand it to a TokenReview: `POST /apis/authentication.orch.io/v1/tokenreviews` with `spec.token`. The answer says it is authenticated and names the account.',
      checks: [
        sent(
          'A TokenReview authenticated builder',
          `requests.exists(r, r.path.endsWith('/tokenreviews') && r.status == 201 && r.response.status.authenticated == true && r.response.status.user.username == 'system:serviceaccount:${ns}:builder')`,
        ),
      ],
      showMe: [
        request(
          'POST',
          `${sa}/builder/token`,
          { body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenRequest', spec: {} } },
          { capture: { token: 'response.body.status.token' } },
        ),
        request('POST', '/apis/authentication.orch.io/v1/tokenreviews', {
          body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: { token: '${token}' } },
        }),
      ],
    },
    {
      id: 'secret',
      title: 'The legacy token Secret',
      text: 'Create a Secret `builder-token` of type `orch.io/service-account-token` with the annotation `orch.io/service-account.name: builder`. The control plane fills in `token`, `ca.crt` and `namespace`.',
      checks: [
        check(
          'builder-token holds a token',
          { object: { apiVersion: 'v1', resource: 'secrets', namespace: ns, name: 'builder-token' } },
          "object != null && has(object.data) && 'token' in object.data && 'ca.crt' in object.data",
        ),
      ],
      showMe: [
        request('POST', `/api/v1/namespaces/${ns}/secrets`, {
          body: {
            apiVersion: 'v1',
            kind: 'Secret',
            type: 'orch.io/service-account-token',
            metadata: { name: 'builder-token', annotations: { 'orch.io/service-account.name': 'builder' } },
          },
        }),
      ],
    },
  ],
};
