/** Lesson 10: paged lists and continue tokens. */

import type { LessonDocument } from '../format';
import { consoleLink, request, sent, terminalLink } from './common';

const ns = 'learn-paging';
const collection = `/api/v1/namespaces/${ns}/configmaps`;

export const paging: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'paging',
  title: 'Lists in pages',
  part: 'Following change',
  minutes: 3,
  goal: 'Read a long list a page at a time with limit and continue, and know which combinations the server refuses.',
  sections: [
    {
      text: 'A list with `limit=n` returns at most n items and, when more remain, `metadata.continue`: a token to send as `continue=<token>` for the next page. Every page carries the same `metadata.resourceVersion` — together they are one consistent snapshot — and the last page’s `continue` is empty. Tokens expire (after 5 minutes by default) with 410 Gone; then start over.\n\n`continue` with a resourceVersion other than empty or 0 is a 400: the token already says which snapshot.',
      spec: ['core-listing-in-pages', 'core-resource-version-semantics'],
    },
  ],
  start: {
    namespaces: [ns],
    objects: [1, 2, 3, 4, 5, 6, 7].map((n) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `page-${n}` },
      data: { n: String(n) },
    })),
  },
  steps: [
    {
      id: 'first-page',
      title: 'The first page',
      text: `Send \`GET ${collection}?limit=3\`. Three items come back, with a \`metadata.continue\` token and \`remainingItemCount\`.`,
      open: [consoleLink('GET', `${collection}?limit=3`)],
      checks: [
        sent(
          'A first page came back with a continue token',
          "requests.exists(r, r.method == 'GET' && r.path.endsWith('/configmaps') && 'limit' in r.query && !('continue' in r.query) && r.status == 200 && r.kind in ['ConfigMapList', 'Table'] && 'continue' in r.response.metadata && r.response.metadata['continue'] != '')",
        ),
      ],
      showMe: [request('GET', collection, { query: { limit: '3' } })],
    },
    {
      id: 'next-page',
      title: 'The next page',
      text: 'Send the same request with `continue=<the token>` added. The items go on where the first page stopped, at the same resourceVersion.',
      open: [consoleLink('GET', `${collection}?limit=3`)],
      checks: [
        sent(
          'A next page was read with a continue token',
          "requests.exists(r, r.method == 'GET' && 'continue' in r.query && r.query['continue'] != '' && r.status == 200)",
        ),
      ],
      showMe: [
        request(
          'GET',
          collection,
          { query: { limit: '3' } },
          { capture: { token: "response.body.metadata['continue']" } },
        ),
        request('GET', collection, { query: { limit: '3', continue: '${token}' } }),
      ],
    },
    {
      id: 'last-page',
      title: 'To the end',
      text: 'Follow the tokens until a page comes back whose `continue` is empty: that was the last one. `kubectl get --chunk-size=3` walks the same pages for you (kubectl always lists in chunks, of 500 unless told).',
      open: [terminalLink('kubectl get configmaps -n learn-paging --chunk-size=3')],
      checks: [
        sent(
          'A last page (no more continue) was read with a token',
          "requests.exists(r, r.method == 'GET' && 'continue' in r.query && r.status == 200 && r.kind in ['ConfigMapList', 'Table'] && (!('continue' in r.response.metadata) || r.response.metadata['continue'] == ''))",
        ),
      ],
      showMe: [
        request(
          'GET',
          collection,
          { query: { limit: '3' } },
          { capture: { first: "response.body.metadata['continue']" } },
        ),
        request(
          'GET',
          collection,
          { query: { limit: '3', continue: '${first}' } },
          { capture: { second: "response.body.metadata['continue']" } },
        ),
        request('GET', collection, { query: { limit: '3', continue: '${second}' } }),
      ],
    },
    {
      id: 'refused',
      title: 'A combination the server refuses',
      text: 'Send a page request with both a `continue` token and `resourceVersion=1`. The answer is 400: the token already fixes the snapshot.',
      checks: [
        sent(
          'A continue with a resourceVersion was refused with 400',
          "requests.exists(r, r.method == 'GET' && 'continue' in r.query && r.status == 400)",
        ),
      ],
      showMe: [
        request(
          'GET',
          collection,
          { query: { limit: '3' } },
          { capture: { token: "response.body.metadata['continue']" } },
        ),
        request(
          'GET',
          collection,
          { query: { limit: '3', continue: '${token}', resourceVersion: '1' } },
          { expectStatus: [400] },
        ),
      ],
    },
  ],
};
