/** Lesson 15: authentication — anonymous, bad tokens, who the server sees, service-account tokens. */

import type { LessonDocument } from '../format';
import { consoleLink, request, sent } from './common';

const ns = 'learn-authn';

export const authentication: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'authentication',
  title: 'Who is asking: authentication',
  part: 'Who may do what',
  minutes: 4,
  goal: 'See how the server decides who sent a request: no credentials, a wrong token, a user’s token, a service account’s token.',
  sections: [
    {
      text: 'Every request is authenticated first: by a client certificate (its common name is the user, its organizations the groups), a bearer token (a static one, a bootstrap token, a service account’s signed token, an OIDC id_token) or an authenticating proxy. A request with no credentials is `system:anonymous` in group `system:unauthenticated`; a token no authenticator accepts is 401.\n\nThe header’s **as …** chip chooses the identity every view acts as; the Identity tab shows who you are and what you may do.',
      spec: ['auth-authentication', 'auth-errors'],
    },
  ],
  start: { namespaces: [ns] },
  steps: [
    {
      id: 'anonymous',
      title: 'No credentials',
      text: 'Send a request with no credentials: choose **anonymous** in the header’s identity switcher and list namespaces, or press Show me. The answer is 403, naming `system:anonymous`.',
      identity: 'anonymous',
      open: [consoleLink('GET', '/api/v1/namespaces')],
      checks: [
        sent(
          'An anonymous request was refused with 403',
          "requests.exists(r, r.status == 403 && !('authorization' in r.requestHeaders))",
        ),
      ],
      showMe: [request('GET', '/api/v1/namespaces', {}, { expectStatus: [403] })],
    },
    {
      id: 'bad-token',
      title: 'A token nobody knows',
      text: 'Send a request with `Authorization: Bearer not-a-real-token` (the Console lets you set headers). The answer is 401 Unauthorized, and the app lists each authenticator that said no.',
      open: [consoleLink('GET', '/api')],
      checks: [sent('A request was answered 401', 'requests.exists(r, r.status == 401)')],
      showMe: [
        request(
          'GET',
          '/api',
          { headers: { authorization: 'Bearer not-a-real-token' } },
          { expectStatus: [401] },
        ),
      ],
    },
    {
      id: 'service-account',
      title: 'A service account’s token',
      text: `Create a ServiceAccount \`robot\` in \`${ns}\`, ask for a token (\`POST …/serviceaccounts/robot/token\` with a TokenRequest), and send a request with it as the bearer token. The 403 names the user \`system:serviceaccount:${ns}:robot\`. Identity → Service account tokens does the same with buttons.`,
      open: [{ view: 'identity', label: 'Identity → Service account tokens', params: { section: 'tokens' } }],
      checks: [
        sent(
          'A request with a service account token (a JWT) was refused with 403',
          `requests.exists(r, r.status == 403 && 'authorization' in r.requestHeaders && r.requestHeaders['authorization'].startsWith('Bearer eyJ'))`,
        ),
      ],
      showMe: [
        request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
          body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
        }),
        request(
          'POST',
          `/api/v1/namespaces/${ns}/serviceaccounts/robot/token`,
          { body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenRequest', spec: {} } },
          { capture: { token: 'response.body.status.token' } },
        ),
        request(
          'GET',
          `/api/v1/namespaces/${ns}/secrets`,
          { headers: { authorization: 'Bearer ${token}' } },
          { expectStatus: [403] },
        ),
      ],
    },
  ],
};
