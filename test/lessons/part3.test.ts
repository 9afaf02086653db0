/**
 * Extending the API, who may do what, admission and health: each lesson
 * completed by "Show me" and by a learner's own different requests
 * (test/support/lessons.ts).
 */

import { afterAll, beforeAll, it } from 'vitest';
import { admission } from '../../src/lessons/builtin/admission';
import { authentication } from '../../src/lessons/builtin/authentication';
import { crds } from '../../src/lessons/builtin/crds';
import { health } from '../../src/lessons/builtin/health';
import { rbacLesson } from '../../src/lessons/builtin/rbac';
import { serviceAccounts } from '../../src/lessons/builtin/service-accounts';
import { versions } from '../../src/lessons/builtin/versions';
import { completeLesson, startLessonServer, type LessonServer } from '../support/lessons';

let server: LessonServer;
beforeAll(async () => {
  server = await startLessonServer();
});
afterAll(async () => {
  await server.close();
});

const applyYaml = 'application/apply-patch+yaml';
const rbac = 'rbac.authorization.orch.io';

async function send(
  s: LessonServer,
  method: string,
  path: string,
  options: {
    body?: unknown;
    contentType?: string;
    query?: Record<string, string>;
    as?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<unknown> {
  const c = await s.learner(options.as);
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const query = new URLSearchParams(options.query ?? {}).toString();
  const response = await c.raw(method, `${path}${query === '' ? '' : `?${query}`}`, {
    ...(body !== undefined ? { body } : {}),
    headers,
  });
  const text = await response.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

it('versions: a deprecated version, a removed one, the replacement, alpha off', async () => {
  await completeLesson(server, versions, {
    deprecated: (s) =>
      send(s, 'GET', '/apis/flowcontrol.apiserver.orch.io/v1beta2/prioritylevelconfigurations').then(
        () => undefined,
      ),
    removed: (s) => send(s, 'GET', '/apis/policy/v1beta1/poddisruptionbudgets').then(() => undefined),
    replacement: (s) =>
      send(s, 'PATCH', '/apis/batch/v1/namespaces/learn-api-versions/cronjobs/nightly', {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "*/5 * * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n          - name: c\n            image: alpine\n',
      }).then(() => undefined),
    alpha: (s) => send(s, 'GET', '/apis/storage.orch.io/v1alpha1').then(() => undefined),
  });
});

it('health: livez, readyz with an exclusion, metrics', async () => {
  await completeLesson(server, health, {
    verbose: (s) =>
      send(s, 'GET', '/livez', { query: { verbose: 'true' } })
        .catch(() => undefined)
        .then(() => undefined),
    exclude: (s) =>
      send(s, 'GET', '/livez', { query: { verbose: '1', exclude: 'ping' } })
        .catch(() => undefined)
        .then(() => undefined),
    metrics: async (s) => void (await (await s.learner()).raw('GET', '/metrics')),
  });
});

it('authentication: anonymous, a malformed token, a service account token with an audience', async () => {
  const ns = 'learn-authn';
  await completeLesson(server, authentication, {
    anonymous: (s) =>
      send(s, 'GET', '/api/v1/namespaces/default/configmaps', { as: 'anonymous' }).then(() => undefined),
    'bad-token': (s) =>
      send(s, 'GET', '/apis', { headers: { authorization: 'Bearer abc.def' } }).then(() => undefined),
    'service-account': async (s) => {
      await send(s, 'PATCH', `/api/v1/namespaces/${ns}/serviceaccounts/robot`, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: robot\n',
      });
      const answer = (await send(s, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, {
        body: {
          apiVersion: 'authentication.orch.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: 3600 },
        },
      })) as { status: { token: string } };
      await send(s, 'GET', '/api/v1/nodes', { headers: { authorization: `Bearer ${answer.status.token}` } });
    },
  });
});

it('rbac: a 403, a ClusterRole bound in a namespace, aggregation, escalation, impersonation with a group', async () => {
  const ns = 'learn-rbac';
  await completeLesson(server, rbacLesson, {
    forbidden: (s) =>
      send(s, 'GET', `/api/v1/namespaces/${ns}/configmaps/anything`, { as: 'alice' }).then(() => undefined),
    grant: async (s) => {
      await send(s, 'POST', `/apis/${rbac}/v1/clusterroles`, {
        body: {
          apiVersion: `${rbac}/v1`,
          kind: 'ClusterRole',
          metadata: { name: 'learn-rbac-reader' },
          rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
        },
      });
      await send(s, 'POST', `/apis/${rbac}/v1/namespaces/${ns}/rolebindings`, {
        body: {
          apiVersion: `${rbac}/v1`,
          kind: 'RoleBinding',
          metadata: { name: 'alice-reader' },
          roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'learn-rbac-reader' },
          subjects: [{ apiGroup: rbac, kind: 'User', name: 'alice' }],
        },
      });
    },
    aggregate: async (s) => {
      // The labelled part first this time.
      await send(s, 'POST', `/apis/${rbac}/v1/clusterroles`, {
        body: {
          apiVersion: `${rbac}/v1`,
          kind: 'ClusterRole',
          metadata: { name: 'learn-aggregated-part', labels: { 'learn.example.com/aggregate': 'true' } },
          rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
        },
      });
      await send(s, 'POST', `/apis/${rbac}/v1/clusterroles`, {
        body: {
          apiVersion: `${rbac}/v1`,
          kind: 'ClusterRole',
          metadata: { name: 'learn-aggregate' },
          aggregationRule: {
            clusterRoleSelectors: [{ matchLabels: { 'learn.example.com/aggregate': 'true' } }],
          },
        },
      });
    },
    escalation: (s) =>
      send(s, 'POST', `/apis/${rbac}/v1/namespaces/${ns}/roles`, {
        as: 'alice',
        body: {
          apiVersion: `${rbac}/v1`,
          kind: 'Role',
          metadata: { name: 'all-pods' },
          rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }],
        },
      }).then(() => undefined),
    impersonate: (s) =>
      send(s, 'GET', `/api/v1/namespaces/${ns}/pods`, {
        headers: { 'impersonate-user': 'alice', 'impersonate-group': 'learners' },
      }).then(() => undefined),
  });
});

it('service accounts: apply, a token with an audience, a review with that audience, the token Secret', async () => {
  const ns = 'learn-sa';
  const sa = `/api/v1/namespaces/${ns}/serviceaccounts`;
  await completeLesson(server, serviceAccounts, {
    create: (s) =>
      send(s, 'PATCH', `${sa}/builder`, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: builder\n',
      }).then(() => undefined),
    token: (s) =>
      send(s, 'POST', `${sa}/builder/token`, {
        body: {
          apiVersion: 'authentication.orch.io/v1',
          kind: 'TokenRequest',
          spec: { audiences: ['vault'] },
        },
      }).then(() => undefined),
    review: async (s) => {
      const answer = (await send(s, 'POST', `${sa}/builder/token`, {
        body: {
          apiVersion: 'authentication.orch.io/v1',
          kind: 'TokenRequest',
          spec: { audiences: ['vault'] },
        },
      })) as { status: { token: string } };
      await send(s, 'POST', '/apis/authentication.orch.io/v1/tokenreviews', {
        body: {
          apiVersion: 'authentication.orch.io/v1',
          kind: 'TokenReview',
          spec: { token: answer.status.token, audiences: ['vault'] },
        },
      });
    },
    secret: (s) =>
      send(s, 'PATCH', `/api/v1/namespaces/${ns}/secrets/builder-token`, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: 'apiVersion: v1\nkind: Secret\ntype: orch.io/service-account-token\nmetadata:\n  name: builder-token\n  annotations:\n    orch.io/service-account.name: builder\n',
      }).then(() => undefined),
  });
});

it('admission: a pod on the host network, a two-container pod given defaults, over the quota', async () => {
  const pods = '/api/v1/namespaces/learn-admission/pods';
  const pod = (name: string, containers: string[]) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: containers.map((c) => ({
        name: c,
        image: 'registry.example.com/x:2',
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      })),
    },
  });
  await completeLesson(server, admission, {
    'pod-security': (s) =>
      send(s, 'POST', pods, {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'host' },
          spec: { hostNetwork: true, containers: [{ name: 'c', image: 'busybox' }] },
        },
      }).then(() => undefined),
    'limit-range': (s) =>
      send(s, 'POST', pods, { body: pod('api', ['app', 'sidecar']) }).then(() => undefined),
    quota: (s) => send(s, 'POST', pods, { body: pod('api-2', ['app']) }).then(() => undefined),
  });
});

it('crds: apply the definition, a Gadget by apply, status by a full update, a Table', async () => {
  const group = 'learn.example.com';
  const gadgets = `/apis/${group}/v1/namespaces/learn-crd/gadgets`;
  await completeLesson(server, crds, {
    define: (s) =>
      send(s, 'PATCH', `/apis/apiextensions.orch.io/v1/customresourcedefinitions/gadgets.${group}`, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: JSON.stringify(
          crds.steps[0]!.showMe[0] !== undefined && 'request' in crds.steps[0]!.showMe[0]
            ? crds.steps[0]!.showMe[0].request.body
            : {},
        ),
      }).then(() => undefined),
    create: async (s) => {
      // The CRD is Established; its resource may take a moment to be served: the check waits, the learner retries.
      for (let attempt = 0; attempt < 50; attempt++) {
        const answer = (await send(s, 'PATCH', `${gadgets}/g1`, {
          contentType: applyYaml,
          query: { fieldManager: 'learner' },
          body: `apiVersion: ${group}/v1\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  size: 5\n  shape: round\n`,
        })) as { kind?: string };
        if (answer.kind === 'Gadget') return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    status: async (s) => {
      const current = (await send(s, 'GET', `${gadgets}/g1`)) as Record<string, unknown>;
      await send(s, 'PUT', `${gadgets}/g1/status`, { body: { ...current, status: { phase: 'Ready' } } });
    },
    columns: (s) =>
      send(s, 'GET', `${gadgets}/g1`, {
        headers: { accept: 'application/json;as=Table;v=v1;g=meta.orch.io' },
      }).then(() => undefined),
  });
});
