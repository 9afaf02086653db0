// Defaults per kind against the generated schema facts: what a minimal
// object of each kind looks like after the real server's v1.27 defaulting.
import { describe, expect, it } from 'vitest';
import { builtInDefinitions } from '../builtins';
import { namingProfile } from '../../machinery/naming';
import { applyDefaults, defaultingContext } from './index';
import { imageTag } from './image';

type Obj = Record<string, unknown>;
const ctx = defaultingContext(namingProfile('kubernetes'));

function defaulted(definition: string, obj: Obj, gates: Record<string, boolean> = {}): Obj {
  const copy = structuredClone(obj);
  applyDefaults(builtInDefinitions, definition, copy, defaultingContext(namingProfile('kubernetes'), gates));
  return copy;
}

const template = (containers: Obj[]): Obj => ({ metadata: { labels: { app: 'x' } }, spec: { containers } });

describe('pod templates in workloads', () => {
  const d = defaulted('api.apps.v1.Deployment', {
    spec: {
      selector: { matchLabels: { app: 'x' } },
      template: template([{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }]),
    },
  });
  const spec = d.spec as Obj;
  const podSpec = (spec.template as Obj).spec as Obj;
  const container = (podSpec.containers as Obj[])[0] as Obj;

  it('defaults a Deployment', () => {
    expect(spec.replicas).toBe(1);
    expect(spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.progressDeadlineSeconds).toBe(600);
  });

  it('defaults the pod spec and its containers, but not what only Pods get', () => {
    expect(podSpec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      securityContext: {},
    });
    expect(podSpec.enableServiceLinks).toBeUndefined();
    expect(container).toMatchObject({
      resources: {},
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
    });
  });

  it('keeps a Recreate strategy without rolling parameters', () => {
    const r = defaulted('api.apps.v1.Deployment', { spec: { strategy: { type: 'Recreate' } } });
    expect((r.spec as Obj).strategy).toEqual({ type: 'Recreate' });
  });

  it('defaults a ReplicaSet, DaemonSet and StatefulSet', () => {
    expect((defaulted('api.apps.v1.ReplicaSet', {}).spec as Obj).replicas).toBe(1);
    expect(defaulted('api.apps.v1.DaemonSet', {}).spec).toEqual({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    const ss = defaulted('api.apps.v1.StatefulSet', {
      spec: {
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
      },
    }).spec as Obj;
    expect(ss).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      volumeClaimTemplates: [{ spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }],
    });
  });

  it('gives a StatefulSet partition 0 only when it defaulted the strategy type', () => {
    const ss = defaulted('api.apps.v1.StatefulSet', { spec: { updateStrategy: { type: 'RollingUpdate' } } })
      .spec as Obj;
    expect(ss.updateStrategy).toEqual({ type: 'RollingUpdate' });
    const off = defaulted('api.apps.v1.StatefulSet', {}, { StatefulSetAutoDeletePVC: false }).spec as Obj;
    expect(off.persistentVolumeClaimRetentionPolicy).toBeUndefined();
  });
});

describe('Pods', () => {
  const pod = defaulted('api.core.v1.Pod', {
    spec: {
      hostNetwork: true,
      containers: [
        {
          name: 'c',
          image: 'registry.example.com:5000/app:1.2',
          resources: { limits: { cpu: '1' }, requests: { memory: '1Gi' } },
          ports: [{ containerPort: 8080 }],
          livenessProbe: { httpGet: { port: 8080 } },
          env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        },
      ],
      volumes: [
        { name: 'scratch' },
        { name: 's', secret: { secretName: 's' } },
        { name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
        { name: 'h', hostPath: { path: '/x' } },
      ],
    },
  });
  const spec = pod.spec as Obj;
  const c = (spec.containers as Obj[])[0] as Obj;

  it('gets the Pod-only defaults', () => {
    expect(spec.enableServiceLinks).toBe(true);
    expect(c.resources).toEqual({ limits: { cpu: '1' }, requests: { memory: '1Gi', cpu: '1' } });
    expect(c.ports).toEqual([{ containerPort: 8080, protocol: 'TCP', hostPort: 8080 }]);
  });

  it('defaults probes, field references and volumes', () => {
    expect(c.imagePullPolicy).toBe('IfNotPresent');
    expect(c.livenessProbe).toEqual({
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(((c.env as Obj[])[0] as Obj).valueFrom).toEqual({
      fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' },
    });
    expect(spec.volumes).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 's', secret: { secretName: 's', defaultMode: 420 } },
      {
        name: 't',
        projected: {
          sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }],
          defaultMode: 420,
        },
      },
      { name: 'h', hostPath: { path: '/x', type: '' } },
    ]);
  });
});

describe('image pull policy from the tag', () => {
  const cases: [string, string][] = [
    ['nginx', 'latest'],
    ['nginx:latest', 'latest'],
    ['nginx:1.25', '1.25'],
    ['localhost:5000/app', 'latest'],
    [`nginx@sha256:${'a'.repeat(64)}`, ''],
    [`nginx:1@sha256:${'a'.repeat(64)}`, '1'],
    ['Upper/Case', ''],
    ['', ''],
  ];
  for (const [image, tag] of cases)
    it(`${image || '(empty)'} → ${tag || '(none)'}`, () => expect(imageTag(image)).toBe(tag));
});

describe('batch', () => {
  it('defaults a Job', () => {
    const job = defaulted('api.batch.v1.Job', {
      spec: { template: template([{ name: 'c', image: 'busybox' }]) },
    });
    expect(job.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
    });
    expect((job.metadata as Obj).labels).toEqual({ app: 'x' });
    const parallel = defaulted('api.batch.v1.Job', { spec: { parallelism: 3 } }).spec as Obj;
    expect(parallel.completions).toBeUndefined();
  });

  it('defaults a CronJob but not the Job fields of its template', () => {
    const cj = defaulted('api.batch.v1.CronJob', {
      spec: {
        schedule: '* * * * *',
        jobTemplate: { spec: { template: template([{ name: 'c', image: 'busybox' }]) } },
      },
    });
    const spec = cj.spec as Obj;
    expect(spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    const jobSpec = (spec.jobTemplate as Obj).spec as Obj;
    expect(jobSpec.backoffLimit).toBeUndefined();
    expect(((jobSpec.template as Obj).spec as Obj).restartPolicy).toBe('Always');
  });
});

describe('Services', () => {
  const svc = (spec: Obj) => defaulted('api.core.v1.Service', { spec }).spec as Obj;
  it('defaults a ClusterIP service', () => {
    expect(svc({ ports: [{ port: 80 }] })).toEqual({
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
    });
  });
  it('adds what NodePort, LoadBalancer and ClientIP affinity need', () => {
    expect(svc({ type: 'NodePort' }).externalTrafficPolicy).toBe('Cluster');
    expect(svc({ type: 'LoadBalancer' }).allocateLoadBalancerNodePorts).toBe(true);
    expect(svc({ sessionAffinity: 'ClientIP' }).sessionAffinityConfig).toEqual({
      clientIP: { timeoutSeconds: 10800 },
    });
    const external = svc({ type: 'ExternalName', externalName: 'example.com' });
    expect(external.internalTrafficPolicy).toBeUndefined();
    expect(external.ipFamilyPolicy).toBeUndefined();
  });
});

describe('other kinds', () => {
  it('labels a Namespace with its name', () => {
    const ns = defaulted('api.core.v1.Namespace', { metadata: { name: 'team' } });
    expect((ns.metadata as Obj).labels).toEqual({ 'kubernetes.io/metadata.name': 'team' });
    expect(ns.status).toEqual({ phase: 'Active' });
    const orch = { metadata: { name: 'team' } };
    applyDefaults(
      builtInDefinitions,
      'api.core.v1.Namespace',
      orch,
      defaultingContext(namingProfile('orch')),
    );
    expect(orch.metadata).toEqual({ name: 'team', labels: { 'orch.io/metadata.name': 'team' } });
  });

  it('defaults Secrets, claims and volumes', () => {
    expect(defaulted('api.core.v1.Secret', {}).type).toBe('Opaque');
    expect(defaulted('api.core.v1.PersistentVolumeClaim', { spec: {} })).toEqual({
      spec: { volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    });
    expect(defaulted('api.core.v1.PersistentVolume', { spec: {} })).toEqual({
      spec: { persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    });
  });

  it('leaves kinds without defaults alone (Ingress pathType is not defaulted in v1)', () => {
    const ingress = {
      spec: {
        rules: [
          { http: { paths: [{ path: '/', backend: { service: { name: 's', port: { number: 80 } } } }] } },
        ],
      },
    };
    expect(defaulted('api.networking.v1.Ingress', ingress)).toEqual(ingress);
    for (const def of [
      'api.core.v1.ConfigMap',
      'api.core.v1.ServiceAccount',
      'api.coordination.v1.Lease',
      'api.policy.v1.PodDisruptionBudget',
    ]) {
      expect(defaulted(def, { metadata: { name: 'x' } })).toEqual({ metadata: { name: 'x' } });
    }
  });

  it('defaults NetworkPolicy types and ports', () => {
    expect((defaulted('api.networking.v1.NetworkPolicy', { spec: {} }).spec as Obj).policyTypes).toEqual([
      'Ingress',
    ]);
    const both = defaulted('api.networking.v1.NetworkPolicy', {
      spec: { egress: [{ ports: [{ port: 53 }] }] },
    }).spec as Obj;
    expect(both.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(both.egress).toEqual([{ ports: [{ port: 53, protocol: 'TCP' }] }]);
  });

  it('puts RBAC subjects and role references in the RBAC group', () => {
    const rb = defaulted('api.rbac.v1.RoleBinding', {
      roleRef: { kind: 'Role', name: 'r' },
      subjects: [
        { kind: 'User', name: 'u' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
      ],
    });
    expect(rb.roleRef).toEqual({ kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.k8s.io' });
    expect(rb.subjects).toEqual([
      { kind: 'User', name: 'u', apiGroup: 'rbac.authorization.k8s.io' },
      { kind: 'ServiceAccount', name: 'sa', namespace: 'ns', apiGroup: '' },
    ]);
  });

  it('defaults PriorityClass, StorageClass and HPA v2', () => {
    expect(defaulted('api.scheduling.v1.PriorityClass', { value: 1 }).preemptionPolicy).toBe(
      'PreemptLowerPriority',
    );
    expect(defaulted('api.storage.v1.StorageClass', { provisioner: 'x' })).toMatchObject({
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'Immediate',
    });
    const hpa = defaulted('api.autoscaling.v2.HorizontalPodAutoscaler', {
      spec: { maxReplicas: 3, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } },
    }).spec as Obj;
    expect(hpa.minReplicas).toBe(1);
    expect(hpa.metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
      },
    ]);
    expect(hpa.behavior).toEqual({
      scaleDown: {
        selectPolicy: 'Max',
        policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
        stabilizationWindowSeconds: 60,
      },
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
    });
  });

  it('is idempotent', () => {
    const once = defaulted('api.apps.v1.StatefulSet', {
      spec: { template: template([{ name: 'c', image: 'nginx:1' }]) },
    });
    expect(defaulted('api.apps.v1.StatefulSet', once)).toEqual(once);
    expect(ctx.gate('StatefulSetAutoDeletePVC')).toBe(true);
  });
});
