/** Lesson 22: health endpoints and metrics. */

import type { LessonDocument } from '../format';
import { consoleLink, request, sent } from './common';

export const health: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'health',
  title: 'Health and metrics',
  part: 'Running the server',
  minutes: 2,
  goal: 'Ask the server whether it is live and ready, check by check, and read its metrics.',
  sections: [
    {
      text: 'Machines read only the status code of `/livez` and `/readyz`: 200 means live or ready. People add `?verbose` to see each named check as `[+]<name> ok`, and `?exclude=<name>` to leave one out. `/healthz` is the deprecated older form. `/metrics` counts requests, latencies and stored objects in the Prometheus text format; Server → Metrics draws them.',
      spec: ['core-health'],
    },
  ],
  steps: [
    {
      id: 'verbose',
      title: 'Every check by name',
      text: 'Send `GET /readyz?verbose`.',
      open: [
        consoleLink('GET', '/readyz?verbose'),
        { view: 'server', label: 'Server → Health', params: { section: 'health' } },
      ],
      checks: [
        sent(
          'A verbose health check was read',
          "requests.exists(r, r.path in ['/readyz', '/livez', '/healthz'] && 'verbose' in r.query && r.status == 200)",
        ),
      ],
      showMe: [request('GET', '/readyz', { query: { verbose: '' } })],
    },
    {
      id: 'exclude',
      title: 'Leave a check out',
      text: 'Send `GET /livez?verbose&exclude=ping`: the check shows as `excluded: ok`.',
      open: [consoleLink('GET', '/livez?verbose&exclude=ping')],
      checks: [
        sent(
          'A health check with an exclusion was read',
          "requests.exists(r, r.path in ['/readyz', '/livez', '/healthz'] && 'exclude' in r.query && r.status == 200)",
        ),
      ],
      showMe: [request('GET', '/livez', { query: { verbose: '', exclude: 'ping' } })],
    },
    {
      id: 'metrics',
      title: 'Read the metrics',
      text: 'Send `GET /metrics` and find `apiserver_request_total`.',
      open: [
        consoleLink('GET', '/metrics'),
        { view: 'server', label: 'Server → Metrics', params: { section: 'metrics' } },
      ],
      checks: [sent('The metrics were read', "requests.exists(r, r.path == '/metrics' && r.status == 200)")],
      showMe: [request('GET', '/metrics', { accept: 'text/plain' })],
    },
  ],
};
