/**
 * Values the v1.27 registry strategies generate at create, over HTTP: a
 * Job's selector and pod-template labels (`controller-uid`, `job-name` and
 * their `batch.<domain>/` twins, named per profile) with the manual-selector
 * rules and messages; `metadata.generation` 1 for the kinds that track it;
 * the status a new object starts with whatever the client sent (Pod phase
 * and QoS class, Service load balancer, PVC phase, Namespace phase).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namingProfile, type ProfileName } from '../src/machinery/naming';
import { startTestHost, type TestHost } from './support/host';

const podSpec = (resources?: Record<string, unknown>) => ({
  restartPolicy: 'Never',
  containers: [{ name: 'c', image: 'busybox', ...(resources !== undefined ? { resources } : {}) }],
});

describe.each<ProfileName>(['orch', 'kubernetes'])('Job selector generation (%s profile)', (profileName) => {
  const batch = `batch.${namingProfile(profileName).labelDomain}`;
  const jobs = '/apis/batch/v1/namespaces/default/jobs';
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ profile: profileName });
  });
  afterAll(() => host.close());

  const job = (name: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      template: { ...(labels !== undefined ? { metadata: { labels } } : {}), spec: podSpec() },
      ...spec,
    },
  });

  it('generates the selector on the prefixed uid label and the four template labels', async () => {
    const r = await host.request('POST', jobs, { body: job('pi', {}, { app: 'pi' }) });
    expect(r.status, r.text).toBe(201);
    const uid = r.body.metadata.uid as string;
    expect(r.body.metadata.generation).toBe(1);
    expect(r.body.spec.selector).toEqual({ matchLabels: { [`${batch}/controller-uid`]: uid } });
    expect(r.body.spec.template.metadata.labels).toEqual({
      app: 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
      [`${batch}/controller-uid`]: uid,
      [`${batch}/job-name`]: 'pi',
    });
    expect(r.body.spec.manualSelector).toBeUndefined();
  });

  it.each<{ what: string; body: () => unknown; message: (name: string) => string }>([
    {
      what: 'a selector without manualSelector',
      body: () => job('bad-1', { selector: { matchLabels: { app: 'x' } } }, { app: 'x' }),
      // The generated uid label is added to the user's selector before validation, as on the real server.
      message: () =>
        `Job.batch "bad-1" is invalid: spec.selector: Invalid value: &v1.LabelSelector{MatchLabels:map[string]string{"app":"x", "${batch}/controller-uid":"`,
    },
    {
      what: 'a wrong job-name label',
      body: () => job('bad-2', {}, { 'job-name': 'other' }),
      message: () =>
        `Job.batch "bad-2" is invalid: spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"${batch}/controller-uid":`,
    },
    {
      what: 'manualSelector without a selector',
      body: () => job('bad-3', { manualSelector: true }),
      message: () => 'Job.batch "bad-3" is invalid: spec.selector: Required value',
    },
    {
      what: 'a manual selector that does not match the template',
      body: () =>
        job('bad-4', { manualSelector: true, selector: { matchLabels: { app: 'y' } } }, { app: 'x' }),
      message: () =>
        'Job.batch "bad-4" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
    },
  ])('refuses $what', async ({ body, message }) => {
    const r = await host.request('POST', jobs, { body: body() });
    expect(r.status, r.text).toBe(422);
    expect(r.body.message.startsWith(message(''))).toBe(true);
  });

  it('keeps a manual selector and adds no labels', async () => {
    const r = await host.request('POST', jobs, {
      body: job('manual', { manualSelector: true, selector: { matchLabels: { app: 'm' } } }, { app: 'm' }),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.selector).toEqual({ matchLabels: { app: 'm' } });
    expect(r.body.spec.template.metadata.labels).toEqual({ app: 'm' });
  });
});

const zeroStatus: Record<string, Record<string, number>> = {
  Deployment: {},
  ReplicaSet: { replicas: 0 },
  StatefulSet: { replicas: 0, availableReplicas: 0 },
  DaemonSet: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
};

describe('values generated at create', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.close());

  // Pods of these controllers restart Always (the real validation refuses other policies).
  const template = { metadata: { labels: { app: 'a' } }, spec: { ...podSpec(), restartPolicy: 'Always' } };
  const selector = { matchLabels: { app: 'a' } };
  it.each<{
    kind: string;
    path: string;
    body: Record<string, unknown>;
    expect: (o: Record<string, unknown>) => void;
  }>([
    ...['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'].map((kind) => ({
      kind,
      path: `/apis/apps/v1/namespaces/default/${kind.toLowerCase()}s`,
      body: {
        apiVersion: 'apps/v1',
        kind,
        spec: { selector, template, ...(kind === 'StatefulSet' ? { serviceName: 'a' } : {}) },
        status: { replicas: 5, observedGeneration: 9 },
      },
      expect: (o: Record<string, unknown>) => {
        expect((o.metadata as Record<string, unknown>).generation).toBe(1);
        // The Go zero status: plain (non-omitempty) counters appear as 0.
        expect(o.status).toEqual(zeroStatus[kind]);
      },
    })),
    {
      kind: 'Pod (no resources)',
      path: '/api/v1/namespaces/default/pods',
      body: { apiVersion: 'v1', kind: 'Pod', spec: podSpec(), status: { phase: 'Running' } },
      expect: (o) => expect(o.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' }),
    },
    {
      kind: 'Pod (requests only)',
      path: '/api/v1/namespaces/default/pods',
      body: { apiVersion: 'v1', kind: 'Pod', spec: podSpec({ requests: { cpu: '100m' } }) },
      expect: (o) => expect(o.status).toEqual({ phase: 'Pending', qosClass: 'Burstable' }),
    },
    {
      kind: 'Pod (limits equal requests)',
      path: '/api/v1/namespaces/default/pods',
      body: { apiVersion: 'v1', kind: 'Pod', spec: podSpec({ limits: { cpu: '1', memory: '1Gi' } }) },
      expect: (o) => expect(o.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' }),
    },
    {
      kind: 'Service',
      path: '/api/v1/namespaces/default/services',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        spec: { ports: [{ port: 80 }] },
        status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
      },
      expect: (o) => expect(o.status).toEqual({ loadBalancer: {} }),
    },
    {
      kind: 'PersistentVolumeClaim',
      path: '/api/v1/namespaces/default/persistentvolumeclaims',
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        status: { phase: 'Bound' },
      },
      expect: (o) => expect(o.status).toEqual({ phase: 'Pending' }),
    },
    {
      kind: 'Namespace',
      path: '/api/v1/namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', status: { phase: 'Terminating' } },
      expect: (o) => expect(o.status).toEqual({ phase: 'Active' }),
    },
  ])('$kind', async ({ kind, path, body, expect: check }) => {
    const name = `gen-${kind
      .toLowerCase()
      .replace(/[^a-z]+/g, '-')
      .replace(/-$/, '')}`;
    const r = await host.request('POST', path, { body: { ...body, metadata: { name } } });
    expect(r.status, r.text).toBe(201);
    check(r.body as Record<string, unknown>);
  });
});
