/**
 * What admission costs on the Node host: sequential Pod creates/s and the
 * create p50 with the default plugin set, with three sandbox webhooks (two
 * declarative backends and one JavaScript backend), and with three webhooks
 * on a real HTTPS server on loopback — each beside the same creates on a
 * host with every admission plugin disabled (the floor), in one run.
 */

import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { startNodeHost, type NodeHost } from '../src/hosts/node/host';
import { defaultOnPluginNames } from '../src/admission/plugins/index';
import { createTestCA, issueCertificate } from '../test/support/pki';
import { summarize, type Figure } from './report';
import { pool, send } from './host-client';

const creates = 300;

function pod(name: string): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'bench' } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };
}

async function measure(host: NodeHost, prefix: string): Promise<{ rate: number; p50: number }> {
  const dispatcher = pool(host);
  const samples: number[] = [];
  const start = performance.now();
  for (let i = 0; i < creates; i++) {
    const t = performance.now();
    const r = await send(host, dispatcher, 'POST', '/api/v1/namespaces/default/pods', pod(`${prefix}-${i}`));
    if (r.status !== 201) throw new Error(`create answered ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
    samples.push(performance.now() - t);
  }
  const rate = (creates / (performance.now() - start)) * 1000;
  return { rate, p50: summarize(samples).p50 };
}

/** Three webhooks (a mutating one that adds a label, two validating ones that allow) pointing at `clientConfig(i)`. */
function webhookConfigurations(
  clientConfig: (i: number) => Record<string, unknown>,
): { path: string; body: unknown }[] {
  const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
  const common = { rules, sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail' };
  return [
    {
      path: '/apis/admissionregistration.orch.io/v1/mutatingwebhookconfigurations',
      body: {
        apiVersion: 'admissionregistration.orch.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: 'bench-mutating' },
        webhooks: [{ name: 'label.bench.example.com', clientConfig: clientConfig(0), ...common }],
      },
    },
    {
      path: '/apis/admissionregistration.orch.io/v1/validatingwebhookconfigurations',
      body: {
        apiVersion: 'admissionregistration.orch.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'bench-validating' },
        webhooks: [
          { name: 'allow-a.bench.example.com', clientConfig: clientConfig(1), ...common },
          { name: 'allow-b.bench.example.com', clientConfig: clientConfig(2), ...common },
        ],
      },
    },
  ];
}

async function configure(host: NodeHost, items: { path: string; body: unknown }[]): Promise<void> {
  const dispatcher = pool(host);
  for (const item of items) {
    const r = await send(host, dispatcher, 'POST', item.path, item.body);
    if (r.status !== 201) throw new Error(`configuring answered ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
  }
  // Configurations take effect once the informers see them: one create proves the chain is in place.
  await measure(host, 'settle');
}

/** A loopback HTTPS webhook server: path /mutate adds a label by JSON patch, every other path allows. */
async function loopbackWebhooks(): Promise<{ server: Server; port: number; caBundle: string }> {
  const ca = await createTestCA('bench-webhook-ca');
  const leaf = await issueCertificate(ca, { cn: 'localhost', ips: ['127.0.0.1'], server: true });
  const server = createServer({ cert: leaf.certPEM, key: leaf.keyPEM }, (req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const review = JSON.parse(text) as { apiVersion: string; request: { uid: string } };
      const response: Record<string, unknown> = { uid: review.request.uid, allowed: true };
      if ((req.url ?? '').startsWith('/mutate')) {
        response.patchType = 'JSONPatch';
        response.patch = Buffer.from(
          JSON.stringify([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]),
        ).toString('base64');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    caBundle: Buffer.from(ca.certPEM).toString('base64'),
  };
}

const backendNames = ['bench-label', 'bench-allow-rules', 'bench-allow-js'];

/** Three sandbox backends: a rules backend that adds a label, a rules backend that allows, a JavaScript one that allows. */
async function declareBackends(host: NodeHost): Promise<void> {
  const dispatcher = pool(host);
  const backends = [
    {
      name: backendNames[0],
      kind: 'rules',
      rules: [{ allowed: true, patch: [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }] }],
    },
    { name: backendNames[1], kind: 'rules', rules: [{ when: "object.metadata.name != ''", allowed: true }] },
    {
      name: backendNames[2],
      kind: 'javascript',
      source: '(review) => ({ uid: review.request.uid, allowed: true })',
    },
  ];
  for (const b of backends) {
    const r = await send(host, dispatcher, 'PUT', `/sandbox/v1/webhook-backends/${b.name ?? ''}`, b);
    if (r.status !== 200 && r.status !== 201)
      throw new Error(`declaring a backend answered ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
  }
}

export async function runAdmissionBench(): Promise<Figure[]> {
  const section = 'admission (Node host, HTTPS, memory store, Pod creates)';
  const floorName = 'same creates, every admission plugin disabled';
  const off = await startNodeHost({
    port: 0,
    storage: 'memory',
    admission: { disablePlugins: [...defaultOnPluginNames] },
  });
  const defaults = await startNodeHost({ port: 0, storage: 'memory' });
  const sandbox = await startNodeHost({ port: 0, storage: 'memory' });
  const https = await startNodeHost({ port: 0, storage: 'memory' });
  const hooks = await loopbackWebhooks();
  const figures: Figure[] = [];
  try {
    await declareBackends(sandbox);
    await configure(
      sandbox,
      webhookConfigurations((i) => ({ url: `https://${backendNames[i] ?? ''}.webhooks.sandbox.invalid/` })),
    );
    await configure(
      https,
      webhookConfigurations((i) => ({
        url: `https://127.0.0.1:${hooks.port}/${i === 0 ? 'mutate' : `validate-${i}`}`,
        caBundle: hooks.caBundle,
      })),
    );
    // Warm-up: JIT and connection pools, so no host pays for them in the figures.
    for (const host of [off, defaults, sandbox, https]) await measure(host, 'warm');
    const floor = await measure(off, 'bench');
    const measured: [string, { rate: number; p50: number }][] = [
      ['default plugin set', await measure(defaults, 'bench')],
      ['default plugins + 3 sandbox webhooks (2 rules, 1 JavaScript)', await measure(sandbox, 'bench')],
      ['default plugins + 3 loopback HTTPS webhooks', await measure(https, 'bench')],
    ];
    for (const [name, m] of measured)
      figures.push(
        {
          section,
          name: `${name}: creates/s`,
          value: m.rate,
          unit: '/s',
          floor: floor.rate,
          floorName,
          higherIsBetter: true,
        },
        { section, name: `${name}: create p50`, value: m.p50, unit: 'ms', floor: floor.p50, floorName },
      );
  } finally {
    hooks.server.close();
    for (const host of [off, defaults, sandbox, https]) await host.close();
  }
  return figures;
}
