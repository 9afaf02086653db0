/**
 * A real HTTPS admission webhook server on loopback for scenario tests:
 * its certificate comes from a throw-away CA (handed to configurations as
 * `caBundle`), each path is one behaviour (allow, deny, patch, garbage,
 * slow, …) and every AdmissionReview received is kept by path so tests
 * can assert what was sent (version, dryRun, the object seen).
 */

import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createTestCA, issueCertificate } from './pki';

export interface ReceivedReview {
  path: string;
  // Tests read arbitrary AdmissionReview JSON; narrowing happens in assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  review: any;
  authorization?: string;
}

export interface WebhookServer {
  url: string;
  port: number;
  caBundle: string;
  received: ReceivedReview[];
  /** The reviews received on one path (the path without the leading slash's first segment kept: `/allow/x`). */
  calls(path: string): ReceivedReview[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

function labelPatch(object: Json | null | undefined, key: string, value: string): unknown[] {
  const meta = (object?.metadata ?? {}) as { labels?: Record<string, string> };
  if (meta.labels === undefined) return [{ op: 'add', path: '/metadata/labels', value: { [key]: value } }];
  return [{ op: 'add', path: `/metadata/labels/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, value }];
}

/** What one path answers; `respond` gets the review and returns the status and body. */
function answer(path: string, review: Json): { status: number; body: string; delayMs?: number } {
  const request = (review.request ?? {}) as Json & { uid?: string; object?: Json };
  const ok = (response: Json) =>
    JSON.stringify({
      apiVersion: review.apiVersion,
      kind: 'AdmissionReview',
      response: { uid: request.uid, ...response },
    });
  const [, kind = '', arg = ''] = path.split('/');
  switch (kind) {
    case 'allow':
    case 'probe':
      return { status: 200, body: ok({ allowed: true }) };
    case 'deny':
      return { status: 200, body: ok({ allowed: false }) };
    case 'deny-status':
      return {
        status: 200,
        body: ok({ allowed: false, status: { code: Number(arg || '403'), message: `custom denial ${arg}` } }),
      };
    case 'patch': {
      // `/patch/<label>`: sets the label to `yes` (idempotent: no patch when already set).
      const labels = ((request.object?.metadata ?? {}) as { labels?: Record<string, string> }).labels ?? {};
      if (labels[arg] === 'yes') return { status: 200, body: ok({ allowed: true }) };
      const patch = Buffer.from(JSON.stringify(labelPatch(request.object, arg, 'yes'))).toString('base64');
      return { status: 200, body: ok({ allowed: true, patchType: 'JSONPatch', patch }) };
    }
    case 'patch-count': {
      // `/patch-count/<label>`: writes the number of the call into the label (changes the object each time).
      const n = String(
        Number(
          ((request.object?.metadata ?? {}) as { labels?: Record<string, string> }).labels?.[arg] ?? '0',
        ) + 1,
      );
      const patch = Buffer.from(JSON.stringify(labelPatch(request.object, arg, n))).toString('base64');
      return { status: 200, body: ok({ allowed: true, patchType: 'JSONPatch', patch }) };
    }
    case 'bad-patch': {
      const patch = Buffer.from(JSON.stringify([{ op: 'remove', path: '/spec/missing' }])).toString('base64');
      return { status: 200, body: ok({ allowed: true, patchType: 'JSONPatch', patch }) };
    }
    case 'garbage':
      return { status: 200, body: 'this is not json' };
    case 'wrong-version':
      return {
        status: 200,
        body: JSON.stringify({
          apiVersion: String(review.apiVersion).replace(/v1$/, 'v1beta1'),
          kind: 'AdmissionReview',
          response: { uid: request.uid, allowed: true },
        }),
      };
    case 'wrong-uid':
      return {
        status: 200,
        body: JSON.stringify({
          apiVersion: review.apiVersion,
          kind: 'AdmissionReview',
          response: { uid: 'nope', allowed: true },
        }),
      };
    case 'slow':
      return { status: 200, body: ok({ allowed: true }), delayMs: 2500 };
    case 'warn':
      return {
        status: 200,
        body: ok({ allowed: true, warnings: [`careful: ${arg || 'this is a warning'}`] }),
      };
    default:
      return { status: 404, body: '404 page not found' };
  }
}

export async function startWebhookServer(): Promise<WebhookServer> {
  const ca = await createTestCA('webhook-ca');
  const leaf = await issueCertificate(ca, {
    cn: 'webhook',
    dns: ['localhost'],
    ips: ['127.0.0.1'],
    server: true,
  });
  const received: ReceivedReview[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer({ cert: leaf.certPEM, key: leaf.keyPEM }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      let review: Json = {};
      try {
        review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      } catch {
        review = {};
      }
      received.push({
        path,
        review,
        ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}),
      });
      const a = answer(path, review);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status, { 'Content-Type': 'application/json' });
        res.end(a.body);
      };
      if (a.delayMs === undefined) send();
      else {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, a.delayMs);
        timers.add(t);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    caBundle: Buffer.from(ca.certPEM).toString('base64'),
    received,
    calls: (path) => received.filter((r) => r.path === path),
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
