/**
 * Issue 31's differences from a real server, each pinned to the real
 * server's answer over HTTPS on the Node host, in both naming profiles (one
 * host each), and to kubectl's output where kubectl shows it: raw bodies in
 * Go's field order (lists, watch events, Table rows, YAML sorted), the zero
 * values Go writes, the last page's missing `continue`, a watch from rv 1 on
 * a fresh server, RSA service-account tokens, a token webhook without
 * audiences and with files its kubeconfig names, TokenReview groups, the
 * RBAC reason of access reviews, one `sideEffects` cause, a Job's labels, the
 * legacy token's last-used label, a strategic patch that does not fit the
 * type, and the OpenAPI published for CRDs (kubectl's client-side validation).
 * kubectl cases are skipped, with the reason printed, when kubectl is absent.
 */

import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILES, type ProfileName } from '../src/machinery/naming';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';
import { openWatch } from './support/watch';
import { createTestCA, issueCertificate } from './support/pki';
import { createEstablished, crdBody, eventually } from './support/crd';

const noKubectl = kubectlSkipReason();
type Obj = Record<string, unknown>;

/** The keys of the JSON text's object at `path`, in the order the text writes them. */
function keysAt(text: string, path: string): string[] {
  let v: unknown = JSON.parse(text);
  for (const part of path === '' ? [] : path.split('.'))
    v = (v as Obj)[/^\d+$/.test(part) ? Number(part) : part];
  return Object.keys(v as Obj);
}

/** A TokenReview webhook over HTTPS that authenticates `webhook-token` with no audiences in its answer. */
async function startTokenWebhook(): Promise<{ server: Server; url: string; caPEM: string }> {
  const ca = await createTestCA('token-webhook-ca');
  const leaf = await issueCertificate(ca, { cn: 'authn', ips: ['127.0.0.1'], server: true });
  const server = createServer({ cert: leaf.certPEM, key: leaf.keyPEM }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { apiVersion: string; spec: Obj };
      const ok = review.spec.token === 'webhook-token';
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          apiVersion: review.apiVersion,
          kind: 'TokenReview',
          status: ok
            ? { authenticated: true, user: { username: 'hook-user', groups: ['system:masters'] } }
            : { authenticated: false },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/review`,
    caPEM: ca.certPEM,
  };
}

let webhook: Awaited<ReturnType<typeof startTokenWebhook>>;
beforeAll(async () => {
  webhook = await startTokenWebhook();
});
afterAll(async () => {
  await new Promise((resolve) => webhook.server.close(resolve));
});

describe.each<ProfileName>(['kubernetes', 'orch'])('fidelity round 2 (%s profile)', (name) => {
  const profile = PROFILES[name];
  const rbac = profile.suffixed('rbac.authorization');
  const apiextensions = profile.suffixed('apiextensions');
  const cms = '/api/v1/namespaces/default/configmaps';
  let host: TestHost;
  const k = (args: string[], input?: string) => kubectl(host.kubeconfigPath, args, input);

  beforeAll(async () => {
    // The token webhook's kubeconfig names its CA by a path relative to the kubeconfig's own directory.
    const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-'));
    writeFileSync(join(dir, 'ca.crt'), webhook.caPEM);
    const kubeconfig = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '  - name: authn',
      '    cluster:',
      `      server: ${webhook.url}`,
      '      certificate-authority: ca.crt',
      'users:',
      '  - name: apiserver',
      '    user: {}',
      'contexts:',
      '  - name: webhook',
      '    context: { cluster: authn, user: apiserver }',
      'current-context: webhook',
    ].join('\n');
    writeFileSync(join(dir, 'webhook.yaml'), kubeconfig);
    const { readFileSync } = await import('node:fs');
    host = await startTestHost({
      profile: name,
      authentication: {
        webhook: {
          kubeconfig,
          files: { path: join(dir, 'webhook.yaml'), read: (p) => readFileSync(p, 'utf8') },
          cacheTTLms: 0,
        },
      },
    });
  });
  afterAll(() => host.close());

  it('a watch from resourceVersion 1 on a just-started server is one ERROR event: 410 too old', async () => {
    const w = await openWatch(host.url, '/api/v1/namespaces?watch=1&resourceVersion=1');
    await w.ended;
    expect(w.events).toHaveLength(1);
    expect(w.events[0]).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', code: 410, reason: 'Expired' },
    });
    expect(w.events[0]?.object.message).toMatch(/^too old resource version: 1 \(\d+\)$/);
  });

  it("writes objects in Go's field order: GET, list items, watch events, Table rows, YAML sorted", async () => {
    const created = await host.request('POST', cms, {
      body: {
        data: { b: '1', a: '2' },
        metadata: { labels: { z: 'y' }, name: 'ordered' },
        apiVersion: 'v1',
        kind: 'ConfigMap',
      },
    });
    expect(created.status).toBe(201);
    for (const text of [created.text, (await host.request('GET', `${cms}/ordered`)).text]) {
      expect(keysAt(text, '')).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
      expect(keysAt(text, 'metadata')).toEqual([
        'name',
        'namespace',
        'uid',
        'resourceVersion',
        'creationTimestamp',
        'labels',
        'managedFields',
      ]);
      expect(keysAt(text, 'metadata.managedFields.0')).toEqual([
        'manager',
        'operation',
        'apiVersion',
        'time',
        'fieldsType',
        'fieldsV1',
      ]);
      expect(keysAt(text, 'data')).toEqual(['a', 'b']);
    }
    const list = await host.request('GET', `${cms}?fieldSelector=metadata.name%3Dordered`);
    expect(keysAt(list.text, '')).toEqual(['kind', 'apiVersion', 'metadata', 'items']);
    expect(keysAt(list.text, 'items.0')).toEqual(['metadata', 'data']);

    const w = await openWatch(host.url, `${cms}?watch=1&fieldSelector=metadata.name%3Dordered`);
    const [event] = await w.waitFor(1);
    w.abort();
    expect(Object.keys(event ?? {})).toEqual(['type', 'object']);
    expect(Object.keys(event?.object ?? {})).toEqual(['kind', 'apiVersion', 'metadata', 'data']);

    const table = await host.request('GET', `${cms}/ordered?includeObject=Object`, {
      headers: { accept: profile.tableMediaType },
    });
    expect(keysAt(table.text, '')).toEqual(['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
    expect(keysAt(table.text, 'rows.0.object')).toEqual(['kind', 'apiVersion', 'metadata', 'data']);

    const yaml = await host.request('GET', `${cms}/ordered`, { headers: { accept: 'application/yaml' } });
    expect(yaml.text.split('\n').filter((l) => /^\S/.test(l))).toEqual([
      'apiVersion: v1',
      'data:',
      'kind: ConfigMap',
      'metadata:',
    ]);

    const svc = await host.request('POST', '/api/v1/namespaces/default/services', {
      body: {
        metadata: { name: 'ordered' },
        spec: { selector: { app: 'x' }, ports: [{ port: 80, name: 'http' }] },
      },
    });
    expect(keysAt(svc.text, 'spec')).toEqual([
      'ports',
      'selector',
      'clusterIP',
      'clusterIPs',
      'type',
      'sessionAffinity',
      'ipFamilies',
      'ipFamilyPolicy',
      'internalTrafficPolicy',
    ]);
    expect(keysAt(svc.text, 'spec.ports.0')).toEqual(['name', 'protocol', 'port', 'targetPort']);
    const role = await host.request('POST', `/apis/${rbac}/v1/namespaces/default/roles`, {
      body: {
        metadata: { name: 'ordered' },
        rules: [{ resources: ['pods'], apiGroups: [''], verbs: ['get'] }],
      },
    });
    expect(keysAt(role.text, '')).toEqual(['kind', 'apiVersion', 'metadata', 'rules']);
    expect(keysAt(role.text, 'rules.0')).toEqual(['verbs', 'apiGroups', 'resources']);
  });

  it("writes a Deployment's template as Go does, and kubectl shows its zero values", async () => {
    const r = await host.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: {
        metadata: { name: 'zeros' },
        spec: {
          selector: { matchLabels: { app: 'zeros' } },
          template: {
            metadata: { labels: { app: 'zeros' } },
            spec: { containers: [{ image: 'nginx', name: 'c' }] },
          },
        },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.spec.template.metadata).toEqual({ creationTimestamp: null, labels: { app: 'zeros' } });
    expect(r.body.status).toEqual({});
    expect(keysAt(r.text, 'spec.template.spec')).toEqual([
      'containers',
      'restartPolicy',
      'terminationGracePeriodSeconds',
      'dnsPolicy',
      'securityContext',
      'schedulerName',
    ]);
    expect(keysAt(r.text, 'spec.template.spec.containers.0')).toEqual([
      'name',
      'image',
      'resources',
      'terminationMessagePath',
      'terminationMessagePolicy',
      'imagePullPolicy',
    ]);
    if (noKubectl !== undefined) return;
    const got = await k(['get', 'deployment', 'zeros', '-o', 'jsonpath={.spec.template.metadata}']);
    expect(got.stdout).toBe('{"creationTimestamp":null,"labels":{"app":"zeros"}}');
    // kubectl get --raw prints the body as sent: Go's order.
    const raw = await k(['get', '--raw', '/apis/apps/v1/namespaces/default/deployments/zeros']);
    expect(keysAt(raw.stdout, 'spec.template.spec.containers.0').slice(0, 3)).toEqual([
      'name',
      'image',
      'resources',
    ]);
  });

  it("writes the controllers' objects in Go's order too: the Deployment's ReplicaSet, its Pod and their Events", async () => {
    const labels = { app: 'ctrl-order' };
    const d = await host.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: {
        metadata: { name: 'ctrl-order' },
        spec: {
          replicas: 1,
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ image: 'nginx', name: 'c' }] } },
        },
      },
    });
    expect(d.status).toBe(201);
    const selector = 'labelSelector=app%3Dctrl-order';
    const rsPath = `/apis/apps/v1/namespaces/default/replicasets?${selector}`;
    const rs = await eventually(async () => {
      const r = await host.request('GET', rsPath);
      return r.body.items?.length === 1 && r.body.items[0].status?.replicas === 1 ? r : undefined;
    }, 'the ReplicaSet with its pod');
    expect(keysAt(rs.text, 'items.0.metadata')).toEqual([
      'name',
      'namespace',
      'uid',
      'resourceVersion',
      'generation',
      'creationTimestamp',
      'labels',
      'annotations',
      'ownerReferences',
      'managedFields',
    ]);
    const ownerKeys = ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'];
    expect(keysAt(rs.text, 'items.0.metadata.ownerReferences.0')).toEqual(ownerKeys);
    expect(keysAt(rs.text, 'items.0.spec')).toEqual(['replicas', 'selector', 'template']);
    expect(rs.body.items[0].spec.template.metadata.creationTimestamp).toBeNull();
    expect(keysAt(rs.text, 'items.0.status').slice(0, 2)).toEqual(['replicas', 'fullyLabeledReplicas']);

    const pods = await host.request('GET', `/api/v1/namespaces/default/pods?${selector}`);
    expect(pods.body.items).toHaveLength(1);
    expect(keysAt(pods.text, 'items.0.metadata')).toEqual([
      'name',
      'generateName',
      'namespace',
      'uid',
      'resourceVersion',
      'creationTimestamp',
      'labels',
      'ownerReferences',
      'managedFields',
    ]);
    expect(keysAt(pods.text, 'items.0.metadata.ownerReferences.0')).toEqual(ownerKeys);
    // The service-account admission plugin mounted the token volume, as on a real server.
    expect(keysAt(pods.text, 'items.0.spec.containers.0')).toEqual([
      'name',
      'image',
      'resources',
      'volumeMounts',
      'terminationMessagePath',
      'terminationMessagePolicy',
      'imagePullPolicy',
    ]);
    const podName = pods.body.items[0].metadata.name as string;
    const table = await host.request(
      'GET',
      `/api/v1/namespaces/default/pods/${podName}?includeObject=Object`,
      {
        headers: { accept: profile.tableMediaType },
      },
    );
    expect(keysAt(table.text, 'rows.0.object')).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(keysAt(table.text, 'rows.0.object.metadata').slice(0, 3)).toEqual([
      'name',
      'generateName',
      'namespace',
    ]);
    const w = await openWatch(host.url, `/api/v1/namespaces/default/pods?watch=1&${selector}`);
    const [event] = await w.waitFor(1);
    w.abort();
    expect(Object.keys(event?.object.metadata ?? {}).slice(0, 3)).toEqual([
      'name',
      'generateName',
      'namespace',
    ]);

    // The controllers' Events (SuccessfulCreate, ScalingReplicaSet), as the recorder of client-go writes them.
    const events = await eventually(async () => {
      const r = await host.request('GET', '/api/v1/namespaces/default/events');
      const mine = (r.body.items as Obj[]).filter((e) =>
        String((e.involvedObject as Obj).name).startsWith('ctrl-order'),
      );
      return mine.length >= 2 ? r : undefined;
    }, "the controllers' events");
    const index = (events.body.items as Obj[]).findIndex(
      (e) => (e.involvedObject as Obj).name === 'ctrl-order' && e.reason === 'ScalingReplicaSet',
    );
    expect(index).toBeGreaterThanOrEqual(0);
    const ev = events.body.items[index];
    expect(keysAt(events.text, `items.${index}`)).toEqual([
      'metadata',
      'involvedObject',
      'reason',
      'message',
      'source',
      'firstTimestamp',
      'lastTimestamp',
      'count',
      'type',
      'eventTime',
      'reportingComponent',
      'reportingInstance',
    ]);
    expect(keysAt(events.text, `items.${index}.involvedObject`)).toEqual([
      'kind',
      'namespace',
      'name',
      'uid',
      'apiVersion',
      'resourceVersion',
    ]);
    expect(ev.eventTime).toBeNull();
  });

  it('ends a paged list without continue (a custom resource list keeps ""), and quotes a bad byte as Go', async () => {
    for (const n of ['p1', 'p2']) await host.request('POST', cms, { body: { metadata: { name: n } } });
    const first = await host.request('GET', `${cms}?limit=1`);
    expect(first.body.metadata.continue).toMatch(/./);
    let page = first;
    while (page.body.metadata.continue !== undefined)
      page = await host.request(
        'GET',
        `${cms}?limit=1&continue=${encodeURIComponent(page.body.metadata.continue)}`,
      );
    expect(keysAt(page.text, 'metadata')).toEqual(['resourceVersion']);
    const unpaged = await host.request('GET', cms);
    expect(unpaged.body.metadata).not.toHaveProperty('continue');
    const garbage = await host.request('GET', `${cms}?limit=1&continue=gQ`);
    expect(garbage.status).toBe(400);
    expect(garbage.body.message).toBe(
      "invalid continue token: continue key is not valid: invalid character '\\u0081' looking for beginning of value",
    );
  });

  it('signs service-account tokens with an RSA 2048 key (RS256)', async () => {
    const r = await host.request('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
      body: { spec: {} },
    });
    expect(r.status).toBe(201);
    const header = JSON.parse(
      Buffer.from(String(r.body.status.token).split('.')[0] ?? '', 'base64url').toString(),
    );
    expect(header.alg).toBe('RS256');
    const jwks = await host.request('GET', '/openid/v1/jwks');
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256' });
    expect(Buffer.from(jwks.body.keys[0].n, 'base64url').length).toBe(256);
  });

  it('accepts a token webhook that answers without audiences, its CA read from a file beside its kubeconfig', async () => {
    const r = await host.request('GET', '/api/v1/namespaces/default', { as: 'webhook-token' });
    expect(r.status, r.text).toBe(200);
    const bad = await host.request('GET', '/api/v1/namespaces/default', { as: 'other-token' });
    expect(bad.status).toBe(401);
  });

  it('TokenReview: an authenticated token has system:authenticated among its groups', async () => {
    const token = await host.request('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
      body: { spec: {} },
    });
    const review = await host.request('POST', `/apis/${profile.suffixed('authentication')}/v1/tokenreviews`, {
      body: { spec: { token: token.body.status.token } },
    });
    expect(review.status).toBe(201);
    expect(review.body.status.user.groups).toEqual([
      'system:serviceaccounts',
      'system:serviceaccounts:default',
      'system:authenticated',
    ]);
  });

  it('an access review names a missing ClusterRole in status.reason only; kubectl auth can-i says it once', async () => {
    await host.request('POST', `/apis/${rbac}/v1/clusterrolebindings`, {
      body: {
        metadata: { name: 'to-ghost' },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'ghost' },
        subjects: [{ apiGroup: rbac, kind: 'User', name: 'bob' }],
      },
    });
    const sar = await host.request(
      'POST',
      `/apis/${profile.suffixed('authorization')}/v1/subjectaccessreviews`,
      {
        body: {
          spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } },
        },
      },
    );
    expect(sar.body.status).toEqual({
      allowed: false,
      reason: `RBAC: clusterrole.${rbac} "ghost" not found`,
    });
    // kubectl's auth commands call authorization.k8s.io by name: only the kubernetes profile serves it.
    if (noKubectl !== undefined || name !== 'kubernetes') return;
    const can = await k(['auth', 'can-i', 'get', 'pods', '--as', 'bob']);
    expect(can.stdout).toBe(`no - RBAC: clusterrole.${rbac} "ghost" not found\n`);
  });

  it('a webhook configuration without sideEffects has one cause', async () => {
    const r = await host.request(
      'POST',
      `/apis/${profile.suffixed('admissionregistration')}/v1/validatingwebhookconfigurations`,
      {
        body: {
          metadata: { name: 'no-side-effects' },
          webhooks: [
            { name: 'a.b.c', clientConfig: { url: 'https://example.com' }, admissionReviewVersions: ['v1'] },
          ],
        },
      },
    );
    expect(r.status).toBe(422);
    expect(r.body.details.causes).toEqual([
      {
        reason: 'FieldValueRequired',
        message: 'Required value: must specify one of None, NoneOnDryRun',
        field: 'webhooks[0].sideEffects',
      },
    ]);
  });

  it("a Job created without labels takes its template's, the generated ones included", async () => {
    const r = await host.request('POST', '/apis/batch/v1/namespaces/default/jobs', {
      body: {
        metadata: { name: 'labelled' },
        spec: {
          template: {
            metadata: { labels: { app: 'j' } },
            spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
          },
        },
      },
    });
    expect(r.status).toBe(201);
    const uid = r.body.metadata.uid as string;
    const batch = (n: string) => profile.subPrefixed('batch', n);
    const want = {
      app: 'j',
      [batch('controller-uid')]: uid,
      [batch('job-name')]: 'labelled',
      'controller-uid': uid,
      'job-name': 'labelled',
    };
    expect(r.body.metadata.labels).toEqual(want);
    expect(r.body.spec.template.metadata.labels).toEqual(want);
  });

  it('a legacy token that authenticates labels its Secret with the date it was last used', async () => {
    await host.request('POST', '/api/v1/namespaces/default/serviceaccounts', {
      body: { metadata: { name: 'legacy' } },
    });
    await host.request('POST', '/api/v1/namespaces/default/secrets', {
      body: {
        metadata: {
          name: 'legacy-token',
          annotations: { [profile.prefixed('service-account.name')]: 'legacy' },
        },
        type: `${profile.prefixed('service-account-token')}`,
      },
    });
    const token = await eventually(async () => {
      const s = await host.request('GET', '/api/v1/namespaces/default/secrets/legacy-token');
      return s.body?.data?.token !== undefined
        ? Buffer.from(s.body.data.token, 'base64').toString()
        : undefined;
    }, 'the token controller to fill the secret');
    expect((await host.request('GET', '/api/v1/namespaces/default', { as: token })).status).toBe(403);
    const label = profile.prefixed('legacy-token-last-used');
    const labelled = await eventually(async () => {
      const s = await host.request('GET', '/api/v1/namespaces/default/secrets/legacy-token');
      return s.body?.metadata?.labels?.[label] as string | undefined;
    }, 'the last-used label');
    expect(labelled).toBe(new Date().toISOString().slice(0, 10));
  });

  it('a strategic merge patch that does not fit the type is 422 on the field patch, as Go prints the patch', async () => {
    await host.request('POST', '/api/v1/namespaces/default/pods', {
      body: {
        metadata: { name: 'valid-pod', labels: { name: 'valid-pod' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    });
    const r = await host.request('PATCH', '/api/v1/namespaces/default/pods/valid-pod', {
      body: { metadata: { labels: 'invalid' } },
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:invalid]]": cannot restore map from string',
      reason: 'Invalid',
      details: {
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "map[metadata:map[labels:invalid]]": cannot restore map from string',
            field: 'patch',
          },
        ],
      },
      code: 422,
    });
    if (noKubectl !== undefined) return;
    const out = await k(['patch', 'pod', 'valid-pod', '-p', '{"metadata":{"labels":"invalid"}}']);
    expect(out.code).not.toBe(0);
    expect(out.stderr.trim()).toBe(
      'The request is invalid: patch: Invalid value: "map[metadata:map[labels:invalid]]": cannot restore map from string',
    );
  });

  it("publishes a CRD's schema as the real server: kubectl's client-side validation accepts what the server does", async () => {
    const group = `round2.${name}.example.com`;
    const ext = (n: string) => profile.ext(n);
    await createEstablished(
      host,
      crdBody(
        { type: 'object', [ext('preserve-unknown-fields')]: true },
        { group, plural: 'bars', kind: 'Bar', apiGroup: apiextensions },
      ),
      apiextensions,
    );
    await createEstablished(
      host,
      crdBody(
        {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              required: ['port'],
              properties: {
                port: { [ext('int-or-string')]: true },
                note: { type: 'string', nullable: true },
                size: { type: 'integer', default: 3 },
                free: { type: 'object', [ext('preserve-unknown-fields')]: true },
                inner: {
                  type: 'object',
                  [ext('embedded-resource')]: true,
                  [ext('preserve-unknown-fields')]: true,
                },
              },
            },
          },
        },
        { group, plural: 'quxes', kind: 'Qux', apiGroup: apiextensions },
      ),
      apiextensions,
    );
    const reversed = group.split('.').reverse().join('.');
    const v2 = await host.request('GET', '/openapi/v2');
    expect(v2.body.definitions[`${reversed}.v1.Bar`]).toEqual({
      type: 'object',
      [ext('group-version-kind')]: [{ group, kind: 'Bar', version: 'v1' }],
    });
    const qux2 = v2.body.definitions[`${reversed}.v1.Qux`];
    expect(qux2.properties.spec.properties.port).toEqual({ [ext('int-or-string')]: true });
    expect(qux2.properties.spec.properties.note).toEqual({});
    expect(qux2.properties.spec.properties.free).toEqual({ [ext('preserve-unknown-fields')]: true });
    expect(qux2.properties.spec.properties.inner).toEqual({
      [ext('embedded-resource')]: true,
      [ext('preserve-unknown-fields')]: true,
    });
    const v3 = await host.request('GET', `/openapi/v3/apis/${group}/v1`);
    const qux3 = v3.body.components.schemas[`${reversed}.v1.Qux`];
    expect(qux3.properties.spec.properties.port).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      [ext('int-or-string')]: true,
    });
    expect(qux3.properties.spec.properties.note).toEqual({ type: 'string', nullable: true });
    expect(qux3.properties.spec.properties.size).toEqual({ type: 'integer', default: 3 });
    expect(qux3.properties.spec.properties.inner).toMatchObject({
      type: 'object',
      required: ['kind', 'apiVersion'],
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' } },
    });
    expect(v3.body.components.schemas[`${reversed}.v1.Bar`]).toMatchObject({
      type: 'object',
      [ext('preserve-unknown-fields')]: true,
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' } },
    });
    if (noKubectl !== undefined) return;
    // A List is validated client-side (kubectl cannot ask the server to): unknown fields of a preserving kind pass.
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          kind: 'Bar',
          apiVersion: `${group}/v1`,
          metadata: { name: 'test-list' },
          someField: 'field1',
          otherField: 'field2',
        },
      ],
    };
    const applied = await k(['apply', '-f', '-'], JSON.stringify(list));
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim()).toBe(`bar.${group}/test-list created`);
    // A custom resource comes back with its keys sorted at every depth.
    const raw = await host.request('GET', `/apis/${group}/v1/namespaces/default/bars/test-list`);
    expect(keysAt(raw.text, '')).toEqual(['apiVersion', 'kind', 'metadata', 'otherField', 'someField']);
    expect(keysAt(raw.text, 'metadata')).toEqual([...keysAt(raw.text, 'metadata')].sort());
    const crList = await host.request('GET', `/apis/${group}/v1/namespaces/default/bars`);
    expect(keysAt(crList.text, '')).toEqual(['apiVersion', 'items', 'kind', 'metadata']);
    expect(crList.body.metadata.continue).toBe('');
  });
});
