/**
 * The PodSecurity plugin on admission attributes (no server): the pod
 * subresources it skips and the one it judges (ephemeralcontainers),
 * metadata-only updates, namespaces whose stored labels are invalid,
 * workloads, the existing-pod warnings grouped per controller, and where
 * warnings and audit annotations go.
 */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { namingProfile } from '../../machinery/naming';
import { StatusError } from '../../machinery/errors';
import { podSecurityPlugin } from '../plugins/pod-security';
import {
  podAttributes,
  recordingAnnotations,
  recordingWarnings,
} from '../plugins/support/fake-deps.test-support';
import type { AdmissionAttributes } from '../types';
import { parsePodSecurityConfig } from './config';

const profile = namingProfile('kubernetes');
const L = (n: string) => `pod-security.kubernetes.io/${n}`;

const namespaceObjects: Record<string, KubeObject> = {
  base: { metadata: { name: 'base', labels: { [L('enforce')]: 'baseline' } } },
  broken: { metadata: { name: 'broken', labels: { [L('enforce')]: 'bogus', [L('warn')]: 'restricted' } } },
  open: { metadata: { name: 'open' } },
};

const rsOwner = (uid: string) => [
  { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: uid, uid, controller: true },
];
const existingPods: KubeObject[] = [
  {
    metadata: { name: 'rs-b', ownerReferences: rsOwner('rs') },
    spec: { hostPID: true, containers: [{ name: 'c' }] },
  },
  {
    metadata: { name: 'rs-a', ownerReferences: rsOwner('rs') },
    spec: { hostPID: true, containers: [{ name: 'c' }] },
  },
  {
    metadata: { name: 'rs-c', ownerReferences: rsOwner('rs') },
    spec: { hostPID: true, containers: [{ name: 'c' }] },
  },
  {
    metadata: { name: 'lone' },
    spec: { containers: [{ name: 'c', securityContext: { privileged: true } }] },
  },
  { metadata: { name: 'fine' }, spec: { containers: [{ name: 'c' }] } },
  {
    metadata: { name: 'kata' },
    spec: { runtimeClassName: 'kata', hostPID: true, containers: [{ name: 'c' }] },
  },
];

const plugin = podSecurityPlugin({
  profile,
  config: parsePodSecurityConfig(
    {
      apiVersion: 'pod-security.admission.config.k8s.io/v1',
      kind: 'PodSecurityConfiguration',
      exemptions: { namespaces: ['kube-system'], runtimeClasses: ['kata'] },
    },
    profile,
  ),
  namespaces: { get: (name) => Promise.resolve(namespaceObjects[name]) },
  listPods: () => Promise.resolve(existingPods),
});

const pod = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', ...meta },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

async function run(attrs: Partial<AdmissionAttributes>): Promise<{
  error?: StatusError;
  warnings: string[];
  annotations: Record<string, string>;
}> {
  // Recorders standing in for the request scope's (the plugin only adds to them).
  const { warnings, seen: warned } = recordingWarnings();
  const audit = recordingAnnotations();
  const a = podAttributes(undefined, {
    namespace: 'base',
    name: 'p',
    user: { username: 'admin', groups: [] },
    warnings,
    annotations: audit.annotations,
    ...attrs,
  });
  let error: StatusError | undefined;
  try {
    await plugin.validate?.(a);
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    error = e;
  }
  for (const level of audit.levels.values()) expect(level).toBe('Metadata');
  return {
    ...(error === undefined ? {} : { error }),
    warnings: warned,
    annotations: Object.fromEntries(audit.seen),
  };
}

const privilegedEphemeral = {
  ephemeralContainers: [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }],
};

describe('PodSecurity plugin', () => {
  const cases: {
    name: string;
    attrs: Partial<AdmissionAttributes>;
    status?: number;
    message?: string;
    warnings?: string[];
    annotations?: Record<string, string>;
  }[] = [
    {
      name: 'an ephemeral container that violates the enforce level is refused',
      attrs: {
        operation: 'UPDATE',
        subresource: 'ephemeralcontainers',
        object: pod(privilegedEphemeral),
        oldObject: pod({}),
      },
      status: 403,
      message:
        'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)',
    },
    {
      name: 'the status subresource is never judged',
      attrs: {
        operation: 'UPDATE',
        subresource: 'status',
        object: pod({ hostPID: true }),
        oldObject: pod({}),
      },
      annotations: {},
    },
    {
      name: 'a metadata-only update of a violating pod passes unjudged',
      attrs: {
        operation: 'UPDATE',
        object: pod({ hostPID: true }, { labels: { a: 'b' } }),
        oldObject: pod({ hostPID: true }),
      },
      annotations: {},
    },
    {
      name: 'an image change is judged',
      attrs: {
        operation: 'UPDATE',
        object: pod({ hostPID: true, containers: [{ name: 'c', image: 'nginx:2' }] }),
        oldObject: pod({ hostPID: true }),
      },
      status: 403,
      message:
        'pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)',
    },
    {
      name: 'a generated name is named in the refusal',
      attrs: { name: '', object: pod({ hostIPC: true }, { name: 'web-x7k2q', generateName: 'web-' }) },
      status: 403,
      message:
        'pods "web-x7k2q" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostIPC=true)',
    },
    {
      name: 'invalid stored labels enforce restricted and record the parse error',
      attrs: { namespace: 'broken', object: pod({}) },
      status: 403,
      annotations: {
        [L('enforce-policy')]: 'restricted:latest',
        [L('error')]:
          'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted',
      },
    },
    {
      name: 'a workload is warned, never refused, even where enforce is restricted',
      attrs: {
        namespace: 'broken',
        group: 'apps',
        resource: 'deployments',
        kind: 'Deployment',
        name: 'd',
        object: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          spec: { template: { spec: { hostNetwork: true, containers: [] } } },
        },
      },
      warnings: ['would violate PodSecurity "restricted:latest": host namespaces (hostNetwork=true)'],
    },
    {
      name: 'a ReplicationController without a template is not judged',
      attrs: {
        namespace: 'broken',
        resource: 'replicationcontrollers',
        kind: 'ReplicationController',
        object: { spec: {} },
      },
      warnings: [],
      annotations: {},
    },
    {
      name: 'a fully privileged namespace records the privileged policy',
      attrs: { namespace: 'open', object: pod({ hostPID: true }) },
      annotations: { [L('enforce-policy')]: 'privileged:latest' },
    },
    {
      name: 'an exempt namespace records why',
      attrs: { namespace: 'kube-system', object: pod({ hostPID: true }) },
      annotations: { [L('exempt')]: 'namespace' },
    },
    {
      name: 'tightening a namespace enforce level lists violating pods, one line per distinct violation',
      attrs: {
        operation: 'UPDATE',
        resource: 'namespaces',
        kind: 'Namespace',
        namespace: 'base',
        name: 'base',
        object: { metadata: { name: 'base', labels: { [L('enforce')]: 'baseline' } } },
        oldObject: { metadata: { name: 'base' } },
      },
      warnings: [
        'existing pods in namespace "base" violate the new PodSecurity enforce level "baseline:latest"',
        'lone: privileged',
        'rs-a (and 2 other pods): host namespaces',
      ],
    },
    {
      name: 'an exempt namespace labelled with a policy is warned it will be ignored',
      attrs: {
        operation: 'UPDATE',
        resource: 'namespaces',
        kind: 'Namespace',
        namespace: 'kube-system',
        name: 'kube-system',
        object: {
          metadata: {
            name: 'kube-system',
            labels: { [L('enforce')]: 'baseline', [L('audit')]: 'restricted' },
          },
        },
        oldObject: { metadata: { name: 'kube-system' } },
      },
      warnings: [
        'namespace "kube-system" is exempt from Pod Security, and the policy (enforce=baseline:latest, audit=restricted:latest) will be ignored',
      ],
    },
    {
      name: 'an unchanged invalid label does not block other namespace updates',
      attrs: {
        operation: 'UPDATE',
        resource: 'namespaces',
        kind: 'Namespace',
        name: 'broken',
        object: { metadata: { name: 'broken', labels: { [L('enforce')]: 'bogus', team: 'a' } } },
        oldObject: { metadata: { name: 'broken', labels: { [L('enforce')]: 'bogus' } } },
      },
      warnings: [],
    },
  ];

  it.each(cases)('$name', async (c) => {
    const r = await run(c.attrs);
    expect(r.error?.status.code).toBe(c.status);
    if (c.message !== undefined) expect(r.error?.status.message).toBe(c.message);
    if (c.warnings !== undefined) expect(r.warnings).toEqual(c.warnings);
    if (c.annotations !== undefined) expect(r.annotations).toEqual(c.annotations);
  });

  it('only looks at creates and updates', () => {
    expect(plugin.operations).toEqual(['CREATE', 'UPDATE']);
  });
});
