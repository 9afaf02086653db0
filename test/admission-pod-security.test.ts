/**
 * PodSecurity over HTTP against the Node host (orch profile, so the labels
 * are `pod-security.orch.io/*`), table-driven: namespaces labelled to
 * enforce, warn and audit; the real 403 message; the `Warning` header;
 * audit annotations seen in the admission trace; workloads warned but never
 * refused; exemptions by user, namespace and runtime class from the plugin
 * configuration; a pinned version; namespace label validation and the
 * warnings for existing pods when the enforce level tightens; pod updates
 * that are and are not evaluated.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWarnings } from '../src/client/warnings';
import type { AdmissionTraceRecord } from '../src/api/admission-trace';
import { startTestHost, type As, type TestHost, type TestResponse } from './support/host';

let host: TestHost;

const label = (name: string) => `pod-security.orch.io/${name}`;

const namespaces: Record<string, Record<string, string>> = {
  'psa-enforce': { [label('enforce')]: 'restricted' },
  'psa-warn': { [label('warn')]: 'restricted' },
  'psa-audit': { [label('audit')]: 'baseline' },
  'psa-pinned': { [label('enforce')]: 'restricted', [label('enforce-version')]: 'v1.21' },
  'psa-later': {},
};

function pod(name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'app', image: 'nginx', ...container }], ...spec },
  };
}

const restrictedContext = {
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
  },
};

const restrictedViolations =
  'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

const template = { metadata: { labels: { app: 'x' } }, spec: pod('').spec };
const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: { selector: { matchLabels: { app: 'x' } }, template },
});
const cronJob = (name: string) => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name },
  spec: {
    schedule: '*/5 * * * *',
    jobTemplate: { spec: { template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } } },
  },
});

async function traceAnnotations(r: TestResponse): Promise<Record<string, string>> {
  const trace = await host.request('GET', `/sandbox/v1/traces/${r.headers.get('audit-id') ?? ''}`);
  expect(trace.status).toBe(200);
  const step = (trace.body as AdmissionTraceRecord).steps.find((s) => s.name === 'PodSecurity');
  return step?.annotations ?? {};
}

beforeAll(async () => {
  host = await startTestHost({
    admission: {
      pluginConfigurations: new Map([
        [
          'PodSecurity',
          {
            apiVersion: 'pod-security.admission.config.orch.io/v1',
            kind: 'PodSecurityConfiguration',
            defaults: { enforce: 'privileged', 'enforce-version': 'latest' },
            exemptions: { usernames: ['alice'], namespaces: ['psa-exempt'], runtimeClasses: ['kata'] },
          },
        ],
      ]),
    },
  });
  for (const [name, labels] of Object.entries(namespaces)) {
    const r = await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name, labels } } });
    expect(r.status).toBe(201);
  }
  const rc = await host.request('POST', '/apis/node.orch.io/v1/runtimeclasses', {
    body: {
      apiVersion: 'node.orch.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'kata' },
      handler: 'kata',
    },
  });
  expect(rc.status).toBe(201);
  // alice may write pods (she is an exempt user; without rights she would be refused before admission).
  const binding = await host.request('POST', '/apis/rbac.authorization.orch.io/v1/clusterrolebindings', {
    body: {
      metadata: { name: 'alice-admin' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'alice' }],
    },
  });
  expect(binding.status).toBe(201);
});

afterAll(async () => {
  await host.close();
});

interface Case {
  name: string;
  path: string;
  body: unknown;
  as?: As;
  dryRun?: boolean;
  status: number;
  message?: string | RegExp;
  warnings?: string[];
  annotations?: Record<string, string>;
}

const podsIn = (ns: string) => `/api/v1/namespaces/${ns}/pods`;

const cases: Case[] = [
  {
    name: 'enforce admits a restricted pod, recording the enforced policy',
    path: podsIn('psa-enforce'),
    body: pod('good', {}, restrictedContext),
    status: 201,
    warnings: [],
    annotations: { [label('enforce-policy')]: 'restricted:latest' },
  },
  {
    name: 'enforce refuses a bare pod with the real message',
    path: podsIn('psa-enforce'),
    body: pod('bad'),
    status: 403,
    message: `pods "bad" is forbidden: violates PodSecurity "restricted:latest": ${restrictedViolations}`,
  },
  {
    name: 'enforce refuses a dry run the same way',
    path: podsIn('psa-enforce'),
    body: pod('bad-dry'),
    dryRun: true,
    status: 403,
    message: `pods "bad-dry" is forbidden: violates PodSecurity "restricted:latest": ${restrictedViolations}`,
  },
  {
    name: 'enforce names a generated pod name in the refusal',
    path: podsIn('psa-enforce'),
    body: { ...pod(''), metadata: { generateName: 'gen-' } },
    status: 403,
    message:
      /^pods "gen-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation/,
  },
  {
    name: 'a pinned version (v1.21) predates the capabilities requirement',
    path: podsIn('psa-pinned'),
    body: pod(
      'pinned',
      {},
      {
        securityContext: {
          allowPrivilegeEscalation: false,
          runAsNonRoot: true,
          seccompProfile: { type: 'RuntimeDefault' },
        },
      },
    ),
    status: 201,
    annotations: { [label('enforce-policy')]: 'restricted:v1.21' },
  },
  {
    name: 'warn admits a bare pod with a Warning',
    path: podsIn('psa-warn'),
    body: pod('warned'),
    status: 201,
    warnings: [`would violate PodSecurity "restricted:latest": ${restrictedViolations}`],
  },
  {
    name: 'audit admits a host-network pod and annotates the audit event',
    path: podsIn('psa-audit'),
    body: pod('audited', { hostNetwork: true }),
    status: 201,
    warnings: [],
    annotations: {
      [label('enforce-policy')]: 'privileged:latest',
      [label('audit-violations')]:
        'would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)',
    },
  },
  {
    name: 'a Deployment in an enforce namespace is admitted without a warning (never enforced)',
    path: '/apis/apps/v1/namespaces/psa-enforce/deployments',
    body: deployment('web'),
    status: 201,
    warnings: [],
  },
  {
    name: 'a Deployment in a warn namespace is warned about its pod template',
    path: '/apis/apps/v1/namespaces/psa-warn/deployments',
    body: deployment('web'),
    status: 201,
    warnings: [`would violate PodSecurity "restricted:latest": ${restrictedViolations}`],
  },
  {
    name: 'a CronJob in a warn namespace is warned about its job template',
    path: '/apis/batch/v1/namespaces/psa-warn/cronjobs',
    body: cronJob('tick'),
    status: 201,
    warnings: [`would violate PodSecurity "restricted:latest": ${restrictedViolations}`],
  },
  {
    name: 'an exempt user creates a bare pod in an enforce namespace',
    path: podsIn('psa-enforce'),
    body: pod('by-alice'),
    as: 'alice',
    status: 201,
    annotations: { [label('exempt')]: 'user' },
  },
  {
    name: 'an exempt runtime class admits a bare pod',
    path: podsIn('psa-enforce'),
    body: pod('in-kata', { runtimeClassName: 'kata' }),
    status: 201,
    annotations: { [label('exempt')]: 'runtimeClass' },
  },
  {
    name: 'a namespace with an invalid level is refused',
    path: '/api/v1/namespaces',
    body: { metadata: { name: 'bad-level', labels: { [label('enforce')]: 'strict' } } },
    status: 422,
    message: `Namespace "bad-level" is invalid: metadata.labels[${label('enforce')}]: Invalid value: "strict": must be one of privileged, baseline, restricted`,
  },
  {
    name: 'a namespace with an invalid version is refused',
    path: '/api/v1/namespaces',
    body: { metadata: { name: 'bad-version', labels: { [label('warn-version')]: '1.27' } } },
    status: 422,
    message: `Namespace "bad-version" is invalid: metadata.labels[${label('warn-version')}]: Invalid value: "1.27": must be "latest" or "v1.x"`,
  },
  {
    name: 'an exempt namespace with a policy is created with a warning',
    path: '/api/v1/namespaces',
    body: { metadata: { name: 'psa-exempt', labels: { [label('enforce')]: 'restricted' } } },
    status: 201,
    warnings: [
      'namespace "psa-exempt" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored',
    ],
  },
  {
    name: 'an exempt namespace admits a bare pod',
    path: podsIn('psa-exempt'),
    body: pod('free'),
    status: 201,
    annotations: { [label('exempt')]: 'namespace' },
  },
];

describe('PodSecurity', () => {
  it.each(cases)('$name', async (c) => {
    const r = await host.request('POST', c.path + (c.dryRun === true ? '?dryRun=All' : ''), {
      body: c.body,
      ...(c.as !== undefined ? { as: c.as } : {}),
    });
    expect(r.status, r.text).toBe(c.status);
    if (c.message !== undefined) {
      if (typeof c.message === 'string') expect(r.body.message).toBe(c.message);
      else expect(r.body.message).toMatch(c.message);
      expect(r.body.reason).toBe(c.status === 403 ? 'Forbidden' : 'Invalid');
    }
    if (c.warnings !== undefined)
      expect(
        parseWarnings(r.headers.get('warning')).filter(
          (w) => w.includes('PodSecurity') || w.includes('Pod Security'),
        ),
      ).toEqual(c.warnings);
    if (c.annotations !== undefined) expect(await traceAnnotations(r)).toMatchObject(c.annotations);
  });
});

describe('PodSecurity on namespace label changes and pod updates', () => {
  const setLabels = (labels: Record<string, string>) =>
    host.request('PATCH', '/api/v1/namespaces/psa-later', {
      body: { metadata: { labels } },
      contentType: 'application/merge-patch+json',
    });

  it('warns about existing pods when the enforce level tightens, then judges updates', async () => {
    for (const [name, spec] of [
      ['a-bare', {}],
      ['b-host', { hostNetwork: true }],
      ['c-host', { hostNetwork: true }],
    ] as const)
      expect((await host.request('POST', podsIn('psa-later'), { body: pod(name, spec) })).status).toBe(201);

    const baseline = await setLabels({ [label('enforce')]: 'baseline' });
    expect(baseline.status).toBe(200);
    expect(parseWarnings(baseline.headers.get('warning'))).toEqual([
      'existing pods in namespace "psa-later" violate the new PodSecurity enforce level "baseline:latest"',
      'b-host (and 1 other pod): host namespaces',
    ]);

    const restricted = await setLabels({ [label('enforce')]: 'restricted' });
    expect(parseWarnings(restricted.headers.get('warning'))).toEqual([
      'existing pods in namespace "psa-later" violate the new PodSecurity enforce level "restricted:latest"',
      'a-bare: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      'b-host (and 1 other pod): host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ]);

    // Relaxing the level, or an invalid value, answers no pod warnings; an invalid one is refused.
    const relaxed = await setLabels({ [label('enforce')]: 'baseline' });
    expect(relaxed.status).toBe(200);
    expect(parseWarnings(relaxed.headers.get('warning'))).toEqual([]);
    const invalid = await setLabels({ [label('enforce')]: 'nope' });
    expect(invalid.status).toBe(422);

    // A metadata-only update of a violating pod is not evaluated; a new image is.
    const relabel = await host.request('PATCH', `${podsIn('psa-later')}/b-host`, {
      body: { metadata: { labels: { tier: 'web' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(relabel.status, relabel.text).toBe(200);
    const reimage = await host.request('PATCH', `${podsIn('psa-later')}/b-host`, {
      body: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } },
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(reimage.status, reimage.text).toBe(403);
    expect(reimage.body.message).toBe(
      'pods "b-host" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)',
    );
  });
});

describe('PodSecurity labels of another naming profile (the orch profile reads pod-security.orch.io/*)', () => {
  const upstream = (name: string) => `pod-security.kubernetes.io/${name}`;
  const cases: { name: string; labels: Record<string, string>; warnings: string[] }[] = [
    {
      name: 'enforce and its version pin',
      labels: { [upstream('enforce')]: 'restricted', [upstream('enforce-version')]: 'latest' },
      warnings: [
        `metadata.labels[${upstream('enforce')}]: this label has no effect in this server's naming profile; Pod Security reads ${label('enforce')}`,
        `metadata.labels[${upstream('enforce-version')}]: this label has no effect in this server's naming profile; Pod Security reads ${label('enforce-version')}`,
      ],
    },
    {
      name: 'audit and warn',
      labels: { [upstream('audit')]: 'baseline', [upstream('warn')]: 'restricted' },
      warnings: [
        `metadata.labels[${upstream('audit')}]: this label has no effect in this server's naming profile; Pod Security reads ${label('audit')}`,
        `metadata.labels[${upstream('warn')}]: this label has no effect in this server's naming profile; Pod Security reads ${label('warn')}`,
      ],
    },
    { name: "the profile's own key", labels: { [label('warn')]: 'baseline' }, warnings: [] },
  ];

  it.each(cases)('a namespace created and updated with $name', async (c) => {
    const name = `psa-foreign-${cases.indexOf(c)}`;
    const created = await host.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: c.labels } },
    });
    expect(created.status, created.text).toBe(201);
    expect(parseWarnings(created.headers.get('warning'))).toEqual(c.warnings);
    const updated = await host.request('PATCH', `/api/v1/namespaces/${name}`, {
      body: { metadata: { annotations: { touched: 'yes' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(updated.status, updated.text).toBe(200);
    expect(parseWarnings(updated.headers.get('warning'))).toEqual(c.warnings);
    // The upstream key enforces nothing here: a privileged pod is admitted.
    const privileged = await host.request('POST', podsIn(name), {
      body: pod('priv', {}, { securityContext: { privileged: true } }),
    });
    expect(privileged.status, privileged.text).toBe(201);
  });
});
