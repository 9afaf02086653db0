/**
 * The Deployment controller through the Node host, pods run by the
 * kwok-like test kubelet: the ReplicaSet per template with its hash label
 * and revision annotations, the status and conditions a real cluster
 * shows, a rolling update and a Recreate one, pause and resume, the
 * revision history limit, the progress deadline passing on the server's
 * clock, and real kubectl's `create deployment`, `rollout
 * status|history|undo`, `set image` and `scale` (skipped, with the reason
 * printed, without kubectl). Then the write-time refusals: a selector that
 * does not match the template, a selector changed.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';
import { startKwok, type Kwok } from './support/kwok';
import { createNamespace, isReady, ownedBy, podTemplate, waitFor, type Json } from './support/workloads';

const ns = 'deploy-test';
const deployPath = `/apis/apps/v1/namespaces/${ns}/deployments`;
const rsPath = `/apis/apps/v1/namespaces/${ns}/replicasets`;
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const skip = kubectlSkipReason();

const condition = (d: Json, type: string): Json =>
  ((d?.status?.conditions ?? []) as Json[]).find((c) => c.type === type);

function deployment(name: string, spec: Json): Json {
  return {
    metadata: { name },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: podTemplate({ app: name }, 'nginx:1.24'),
      ...spec,
    },
  };
}

describe('deployment controller', () => {
  let host: TestHost;
  let kwok: Kwok;
  const k = (...args: string[]) => kubectl(host.kubeconfigPath, ['-n', ns, ...args]);

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
    // Pods labelled stuck=true are never run: their rollouts cannot progress.
    kwok = await startKwok(host.url, { holdBack: (p) => p.metadata?.labels?.['stuck'] === 'true' });
    await createNamespace(host, ns);
  });
  afterAll(async () => {
    kwok.stop();
    await host.close();
  });

  const rolledOut = (name: string, replicas: number) =>
    waitFor(
      host,
      `${deployPath}/${name}`,
      (d) =>
        d.status?.observedGeneration === d.metadata.generation &&
        d.status?.updatedReplicas === replicas &&
        d.status?.availableReplicas === replicas &&
        d.status?.replicas === replicas &&
        condition(d, 'Progressing')?.reason === 'NewReplicaSetAvailable',
      `${name} rolled out with ${replicas} replicas`,
      60_000,
    );
  const replicaSetsOf = async (uid: string): Promise<Json[]> =>
    ownedBy((await host.request('GET', rsPath)).body, uid);

  it('creates a ReplicaSet per template and reports the status and conditions a real cluster shows', async () => {
    const r = await host.request('POST', deployPath, { body: deployment('web', { replicas: 3 }) });
    expect(r.status, r.text).toBe(201);
    const d = await rolledOut('web', 3);
    expect(d.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '1' });
    expect(d.status).toMatchObject({
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
    expect(d.status.unavailableReplicas).toBeUndefined();
    expect(d.status.conditions.map((c: Json) => c.type)).toEqual(['Available', 'Progressing']);
    expect(condition(d, 'Available')).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    });
    const [rs] = await replicaSetsOf(d.metadata.uid);
    const hash = rs.metadata.labels['pod-template-hash'] as string;
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    expect(condition(d, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "web-${hash}" has successfully progressed.`,
    });
    expect(rs.metadata.annotations).toEqual({
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
      'deployment.kubernetes.io/revision': '1',
    });
    expect(rs.spec.selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.spec.template.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    const pods = ownedBy((await host.request('GET', podsPath)).body, rs.metadata.uid);
    expect(pods).toHaveLength(3);
    expect(pods.every(isReady)).toBe(true);
  });

  it('rolls a new template out and keeps the old ReplicaSet, scaled to zero', async () => {
    const patch = await host.request('PATCH', `${deployPath}/web`, {
      body: { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } } } },
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(patch.status, patch.text).toBe(200);
    const d = await rolledOut('web', 3);
    expect(d.metadata.generation).toBe(2);
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    const sets = await replicaSetsOf(d.metadata.uid);
    expect(sets).toHaveLength(2);
    const byRevision = (n: string) =>
      sets.find((s) => s.metadata.annotations['deployment.kubernetes.io/revision'] === n);
    expect(byRevision('1')?.spec.replicas).toBe(0);
    expect(byRevision('2')?.spec.replicas).toBe(3);
    expect(byRevision('2')?.spec.template.spec.containers[0].image).toBe('nginx:1.25');
    const events = await waitFor(
      host,
      `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=web`,
      (b) => (b.items as Json[]).some((e) => /^Scaled down replica set web-\w+ to 0 from 1$/.test(e.message)),
      'the old replica set scaled down to 0',
    );
    const messages = (events.items as Json[]).map((e) => e.message as string);
    expect(messages.some((m) => /^Scaled up replica set web-\w+ to 3$/.test(m))).toBe(true);
    expect((events.items as Json[])[0].source).toEqual({ component: 'deployment-controller' });
  });

  it.skipIf(skip !== undefined)(
    'works with kubectl rollout status, history, undo, set image and scale',
    async () => {
      const created = await k('create', 'deployment', 'cli', '--image=nginx:1.24', '--replicas=2');
      expect(created.stderr).toBe('');
      // Each rollout is awaited over HTTP first, so kubectl's own wait does not race a loaded machine.
      await rolledOut('cli', 2);
      const status = await k('rollout', 'status', 'deployment/cli', '--timeout=30s');
      expect(status.stdout).toContain('deployment "cli" successfully rolled out');
      expect((await k('set', 'image', 'deployment/cli', 'nginx=nginx:1.25')).code).toBe(0);
      await rolledOut('cli', 2);
      const second = await k('rollout', 'status', 'deployment/cli', '--timeout=30s');
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain('deployment "cli" successfully rolled out');
      const history = await k('rollout', 'history', 'deployment/cli');
      expect(history.stdout).toContain('REVISION  CHANGE-CAUSE');
      expect(history.stdout).toMatch(/^1\s+<none>$/m);
      expect(history.stdout).toMatch(/^2\s+<none>$/m);
      const one = await k('rollout', 'history', 'deployment/cli', '--revision=1');
      expect(one.stdout).toContain('nginx:1.24');
      const undo = await k('rollout', 'undo', 'deployment/cli');
      expect(undo.stdout).toContain('deployment.apps/cli rolled back');
      await rolledOut('cli', 2);
      const image = await k(
        'get',
        'deployment',
        'cli',
        '-o',
        'jsonpath={.spec.template.spec.containers[0].image}',
      );
      expect(image.stdout).toBe('nginx:1.24');
      const after = await k('rollout', 'history', 'deployment/cli');
      expect(after.stdout).toMatch(/^2\s+<none>$/m);
      expect(after.stdout).toMatch(/^3\s+<none>$/m);
      expect(after.stdout).not.toMatch(/^1\s+<none>$/m);
      // The rolled-back-to ReplicaSet keeps its earlier revision.
      const sets = await k('get', 'rs', '-l', 'app=cli', '-o', 'jsonpath={.items[*].metadata.annotations}');
      expect(sets.stdout).toContain('"deployment.kubernetes.io/revision-history":"1"');
      expect((await k('scale', 'deployment/cli', '--replicas=4')).code).toBe(0);
      await rolledOut('cli', 4);
      const scaled = await k('rollout', 'status', 'deployment/cli', '--timeout=30s');
      expect(scaled.code, scaled.stderr).toBe(0);
      const ready = await k('get', 'deployment', 'cli', '-o', 'jsonpath={.status.readyReplicas}');
      expect(ready.stdout).toBe('4');
    },
    120_000,
  );

  it('scales old ReplicaSets to zero before starting new pods with Recreate', async () => {
    const r = await host.request('POST', deployPath, {
      body: deployment('recreate', { strategy: { type: 'Recreate' } }),
    });
    expect(r.status, r.text).toBe(201);
    await rolledOut('recreate', 2);
    await host.request('PATCH', `${deployPath}/recreate`, {
      body: { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } } } },
      contentType: 'application/strategic-merge-patch+json',
    });
    await rolledOut('recreate', 2);
    const events = (
      await host.request('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=recreate`)
    ).body.items as Json[];
    const messages = events.map((e) => e.message as string);
    const down = messages.findIndex((m) => /^Scaled down replica set recreate-\w+ to 0 from 2$/.test(m));
    const up = messages.findLastIndex((m) => /^Scaled up replica set recreate-\w+ to 2$/.test(m));
    expect(down).toBeGreaterThanOrEqual(0);
    expect(up).toBeGreaterThan(down);
  });

  it('holds a paused rollout and records the pause in Progressing', async () => {
    const r = await host.request('POST', deployPath, { body: deployment('paused', { paused: true }) });
    expect(r.status, r.text).toBe(201);
    const d = await waitFor(
      host,
      `${deployPath}/paused`,
      (b) => condition(b, 'Progressing')?.reason === 'DeploymentPaused',
      'the paused condition',
    );
    expect(condition(d, 'Progressing')).toMatchObject({ status: 'Unknown', message: 'Deployment is paused' });
    expect(await replicaSetsOf(d.metadata.uid)).toHaveLength(0);
    await host.request('PATCH', `${deployPath}/paused`, {
      body: { spec: { paused: false } },
      contentType: 'application/merge-patch+json',
    });
    const resumed = await rolledOut('paused', 2);
    expect(await replicaSetsOf(resumed.metadata.uid)).toHaveLength(1);
  });

  it('keeps at most revisionHistoryLimit old ReplicaSets', async () => {
    const r = await host.request('POST', deployPath, {
      body: deployment('limited', { replicas: 1, revisionHistoryLimit: 1 }),
    });
    expect(r.status, r.text).toBe(201);
    for (const tag of ['1.25', '1.26', '1.27']) {
      await rolledOut('limited', 1);
      await host.request('PATCH', `${deployPath}/limited`, {
        body: { spec: { template: { spec: { containers: [{ name: 'c', image: `nginx:${tag}` }] } } } },
        contentType: 'application/strategic-merge-patch+json',
      });
    }
    const d = await rolledOut('limited', 1);
    const sets = await waitFor(
      host,
      rsPath,
      (b) => ownedBy(b, d.metadata.uid).length === 2,
      'one old ReplicaSet beside the new one',
    );
    const revisions = ownedBy(sets, d.metadata.uid)
      .map((s) => s.metadata.annotations['deployment.kubernetes.io/revision'])
      .sort();
    expect(revisions).toEqual(['3', '4']);
  });

  it('reports a rollout stuck past its progress deadline once the server clock passes it', async () => {
    const body = deployment('stuck', { progressDeadlineSeconds: 60 });
    body.spec.template.metadata.labels.stuck = 'true';
    const r = await host.request('POST', deployPath, { body });
    expect(r.status, r.text).toBe(201);
    await waitFor(
      host,
      `${deployPath}/stuck`,
      (b) => condition(b, 'Progressing')?.reason === 'ReplicaSetUpdated',
      'the rollout progressing',
    );
    host.api.clock.advance(61_000);
    const d = await waitFor(
      host,
      `${deployPath}/stuck`,
      (b) => condition(b, 'Progressing')?.reason === 'ProgressDeadlineExceeded',
      'the deadline exceeded',
    );
    expect(condition(d, 'Progressing').status).toBe('False');
    expect(condition(d, 'Progressing').message).toMatch(
      /^ReplicaSet "stuck-\w+" has timed out progressing\.$/,
    );
    expect(condition(d, 'Available')).toMatchObject({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
    });
    if (skip === undefined) {
      const status = await k('rollout', 'status', 'deployment/stuck', '--timeout=10s');
      expect(status.code).not.toBe(0);
      expect(status.stderr).toContain('deployment "stuck" exceeded its progress deadline');
    }
  });

  it('bumps the generation when annotations change, as they are copied to ReplicaSets', async () => {
    const r = await host.request('PATCH', `${deployPath}/web`, {
      body: { metadata: { annotations: { team: 'blue' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(r.status).toBe(200);
    expect(r.body.metadata.generation).toBe(3);
    const d = await rolledOut('web', 3);
    const current = (await replicaSetsOf(d.metadata.uid)).find((s) => s.spec.replicas === 3);
    await waitFor(
      host,
      `${rsPath}/${current.metadata.name}`,
      (b) => b.metadata.annotations?.team === 'blue',
      'the annotation copied to the new ReplicaSet',
    );
  });

  it.each([
    [
      'a selector that does not match the template',
      (name: string) => ({
        ...deployment(name, {}),
        spec: { ...deployment(name, {}).spec, selector: { matchLabels: { app: 'other' } } },
      }),
      `Deployment.apps "bad-selector" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"bad-selector"}: \`selector\` does not match template \`labels\``,
    ],
    [
      'an empty selector',
      (name: string) => ({ ...deployment(name, {}), spec: { ...deployment(name, {}).spec, selector: {} } }),
      `Deployment.apps "empty-selector" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment`,
    ],
  ])('refuses %s with 422', async (_what, make, message) => {
    const name = message.split('"')[1] as string;
    const r = await host.request('POST', deployPath, { body: make(name) });
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    expect(r.body.message).toBe(message);
  });

  it('refuses a change of selector with 422 field is immutable', async () => {
    const r = await host.request('PATCH', `${deployPath}/web`, {
      body: {
        spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } } } },
      },
      contentType: 'application/merge-patch+json',
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Deployment.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
  });
});
