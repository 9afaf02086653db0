/** Lesson 9: watching — events, the Watch inspector, 410 Gone and the relist. */

import type { LessonDocument } from '../format';
import { check, jsonMerge, request } from './common';

const ns = 'learn-watch';
const collection = `/api/v1/namespaces/${ns}/configmaps`;

export const watch: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'watch',
  title: 'Watching changes',
  part: 'Following change',
  minutes: 4,
  goal: 'Follow a collection with a watch, read its events, and recover when the history you asked for is gone (410) by listing again.',
  sections: [
    {
      text: 'A client lists a collection, then sends the same GET with `watch=1&resourceVersion=<the list’s version>`: the answer is a stream of events — ADDED, MODIFIED, DELETED — for every change after that version, without gaps. With `allowWatchBookmarks=true` the server may also send BOOKMARK events that carry only a newer resourceVersion, so a client can resume from further on.\n\nThe server keeps history for a limited time. A watch from a version older than that is answered 410 Gone: the client must clear what it holds, list again and watch from the new version. A server restart empties its watch cache the same way; the Watch inspector’s **Reset watch cache** does that here.',
      spec: ['core-watching', 'core-resource-version-semantics'],
    },
  ],
  start: {
    namespaces: [ns],
    objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' }, data: { n: '1' } }],
  },
  steps: [
    {
      id: 'open',
      title: 'Open a watch',
      text: 'Open the Watch inspector on ConfigMaps in `learn-watch` (the link fills the form) and press **Start**. It lists first, then watches from the list’s resourceVersion.',
      open: [
        {
          view: 'watch',
          label: 'Watch inspector on learn-watch',
          params: { kind: 'v1/configmaps', ns, start: '1' },
        },
      ],
      checks: [
        check(
          'The inspector watches ConfigMaps in learn-watch',
          { watch: {} },
          `events.exists(e, e.type == 'REQUEST' && e.text.startsWith('GET /api/v1/namespaces/${ns}/configmaps'))`,
        ),
      ],
      showMe: [
        {
          watch: {
            path: collection,
            query: { allowWatchBookmarks: 'true' },
            listFirst: true,
            relistOnGone: true,
          },
          waitFor: "events.exists(e, e.type == 'REQUEST')",
        },
      ],
    },
    {
      id: 'change',
      title: 'See a change arrive',
      text: 'With the watch running, create a ConfigMap in `learn-watch`, or change `one`. The inspector shows the event; choose a MODIFIED to see what changed.',
      open: [{ view: 'explorer', label: 'Explorer on learn-watch', params: { kind: 'v1/configmaps', ns } }],
      checks: [
        check(
          'The inspector received a change',
          { watch: {} },
          `events.exists(e, e.type == 'MODIFIED' || (e.type == 'ADDED' && has(e.name) && e.name != 'one'))`,
        ),
      ],
      showMe: [
        request('POST', collection, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two' }, data: { n: '2' } },
        }),
      ],
    },
    {
      id: 'gone',
      title: '410 Gone, and the relist',
      text: 'In the inspector press **Reset watch cache** (what a server restart does), then **Restart from rv N**, the version the watch started at. That history is gone: the server answers 410, and the inspector lists again and watches on from the new version.',
      open: [{ view: 'watch', label: 'Watch inspector' }],
      hints: [
        'The same by hand: `POST /sandbox/v1/restart-watch-cache`, then a watch with an old `resourceVersion`.',
      ],
      checks: [
        check(
          'The inspector received 410 Gone',
          { watch: {} },
          "events.exists(e, e.type == 'ERROR' && has(e.code) && e.code == 410)",
        ),
      ],
      showMe: [
        request('GET', collection, {}, { capture: { rv: 'response.body.metadata.resourceVersion' } }),
        request('PATCH', `${collection}/one`, { contentType: jsonMerge, body: { data: { n: '3' } } }),
        request('POST', '/sandbox/v1/restart-watch-cache'),
        {
          watch: {
            path: collection,
            query: { resourceVersion: '${rv}', allowWatchBookmarks: 'true' },
            relistOnGone: true,
          },
          waitFor: "events.exists(e, e.type == 'ERROR' && has(e.code) && e.code == 410)",
        },
      ],
    },
  ],
};
