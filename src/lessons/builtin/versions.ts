/** Lesson 12: API versions — stability levels, deprecated and removed versions. */

import type { LessonDocument } from '../format';
import { check, consoleLink, request, sent } from './common';

const ns = 'learn-api-versions';

export const versions: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'versions',
  title: 'API versions and deprecation',
  part: 'Extending the API',
  minutes: 3,
  goal: 'Tell alpha, beta and stable versions apart, notice a deprecated one by its warning, and move to the version that replaces a removed one.',
  sections: [
    {
      text: 'A version name says its stability: `v1alpha1` is off unless enabled and may change at any time, `v2beta3` has a limited life, `v1` stays. A deprecated version still works but every answer carries a `Warning` header; once removed it is not served at all (404), and the objects stored through it are read through its replacement. Server → Versions shows which version each release serves.',
      spec: ['core-versioning'],
    },
  ],
  start: { namespaces: [ns] },
  steps: [
    {
      id: 'deprecated',
      title: 'A deprecated version warns',
      text: 'Send `GET /apis/flowcontrol.apiserver.orch.io/v1beta2/flowschemas`. It answers 200, with a `Warning` header: v1beta2 is deprecated and will not be served from v1.29.',
      open: [
        consoleLink('GET', '/apis/flowcontrol.apiserver.orch.io/v1beta2/flowschemas'),
        { view: 'server', label: 'Server → Versions', params: { section: 'versions' } },
      ],
      checks: [
        sent(
          'A deprecated version answered with a warning',
          "requests.exists(r, r.status == 200 && r.path.contains('beta') && r.warnings.size() > 0)",
        ),
      ],
      showMe: [request('GET', '/apis/flowcontrol.apiserver.orch.io/v1beta2/flowschemas')],
    },
    {
      id: 'removed',
      title: 'A removed version is not served',
      text: 'Send `GET /apis/batch/v1beta1/cronjobs`. CronJob’s v1beta1 was removed in v1.25: the answer is 404.',
      open: [consoleLink('GET', '/apis/batch/v1beta1/cronjobs')],
      checks: [
        sent(
          'A removed version answered 404',
          "requests.exists(r, r.status == 404 && r.path.startsWith('/apis/') && r.path.contains('beta'))",
        ),
      ],
      showMe: [request('GET', '/apis/batch/v1beta1/cronjobs', {}, { expectStatus: [404] })],
    },
    {
      id: 'replacement',
      title: 'Use the replacement',
      text: 'Create a CronJob `nightly` in `learn-api-versions` through `batch/v1`, the version that replaced v1beta1.',
      open: [
        {
          view: 'editor',
          label: 'Editor with a batch/v1 CronJob',
          params: {
            text: `apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\n  namespace: ${ns}\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n          - name: job\n            image: busybox\n`,
          },
        },
      ],
      checks: [
        check(
          'CronJob nightly exists',
          { object: { apiVersion: 'batch/v1', resource: 'cronjobs', namespace: ns, name: 'nightly' } },
          'object != null',
        ),
      ],
      showMe: [
        request('POST', `/apis/batch/v1/namespaces/${ns}/cronjobs`, {
          body: {
            apiVersion: 'batch/v1',
            kind: 'CronJob',
            metadata: { name: 'nightly' },
            spec: {
              schedule: '0 3 * * *',
              jobTemplate: {
                spec: {
                  template: {
                    spec: { restartPolicy: 'OnFailure', containers: [{ name: 'job', image: 'busybox' }] },
                  },
                },
              },
            },
          },
        }),
      ],
    },
    {
      id: 'alpha',
      title: 'Alpha is off by default',
      text: 'Ask for an alpha version: `GET /apis/admissionregistration.orch.io/v1alpha1`. Alpha APIs are served only when enabled with `--runtime-config` (and their feature gate): here it answers 404.',
      open: [consoleLink('GET', '/apis/admissionregistration.orch.io/v1alpha1')],
      checks: [
        sent(
          'An alpha version answered 404',
          "requests.exists(r, r.status == 404 && r.path.contains('alpha'))",
        ),
      ],
      showMe: [request('GET', '/apis/admissionregistration.orch.io/v1alpha1', {}, { expectStatus: [404] })],
    },
  ],
};
