/**
 * What certificate signing and token minting cost end to end on the Node
 * host: CSRs signed/s (create, approve through the `approval` subresource,
 * then the issued certificate seen on a watch — the signing controller's
 * whole round trip) beside the floor of one `@peculiar/x509` certificate
 * signature (`X509CertificateGenerator.create` with the same ECDSA P-256
 * CA key type); and TokenRequests/s (`serviceaccounts/default/token`)
 * beside one `jose` ES256 `SignJWT` signature — both in one run, requests
 * sequential, request keys made before the clock starts.
 */

import { SignJWT, generateKeyPair as joseKeyPair } from 'jose';
import { startNodeHost, type NodeHost } from '../src/hosts/node/host';
import { createCertificateAuthority, randomSerialNumber } from '../src/auth/pki/issue';
import { generateKeyPair, signatureParams } from '../src/auth/pki/keys';
import { x509 } from '../src/auth/pki/x509';
import { makeRequestPEM } from '../test/support/signer-requests';
import { summarize, type Figure } from './report';
import { pool, send, type Dispatcher } from './host-client';

const csrs = 100;
const tokens = 300;
const floorRounds = 300;
const base = '/apis/certificates.orch.io/v1/certificatesigningrequests';

/** A request that must succeed, its JSON answer. */
async function call(
  host: NodeHost,
  dispatcher: Dispatcher,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const r = await send(host, dispatcher, method, path, body);
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/** Names of requests whose certificate a watch has shown, with a way to wait for one. */
async function issuedWatch(host: NodeHost, dispatcher: Dispatcher) {
  const list = (await call(host, dispatcher, 'GET', base)) as { metadata: { resourceVersion: string } };
  const controller = new AbortController();
  const res = await fetch(`${host.url}${base}?watch=1&resourceVersion=${list.metadata.resourceVersion}`, {
    headers: { authorization: `Bearer ${host.token}` },
    dispatcher,
    signal: controller.signal,
  });
  const issued = new Set<string>();
  const waiters = new Map<string, () => void>();
  void (async () => {
    if (res.body === null) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buf += value;
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const event = JSON.parse(buf.slice(0, nl)) as {
            object: { metadata: { name: string }; status?: { certificate?: string } };
          };
          buf = buf.slice(nl + 1);
          const name = event.object.metadata.name;
          if ((event.object.status?.certificate ?? '') === '') continue;
          issued.add(name);
          waiters.get(name)?.();
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    until: (name: string) =>
      issued.has(name) ? Promise.resolve() : new Promise<void>((resolve) => waiters.set(name, resolve)),
    stop: () => controller.abort(),
  };
}

async function csrRound(
  host: NodeHost,
  dispatcher: Dispatcher,
  watch: Awaited<ReturnType<typeof issuedWatch>>,
  name: string,
  pem: string,
): Promise<void> {
  const created = (await call(host, dispatcher, 'POST', base, {
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: Buffer.from(pem).toString('base64'),
      signerName: 'orch.io/apiserver-client',
      usages: ['digital signature', 'client auth'],
    },
  })) as Record<string, unknown>;
  await call(host, dispatcher, 'PUT', `${base}/${name}/approval`, {
    ...created,
    status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Bench', message: 'bench' }] },
  });
  await watch.until(name);
}

async function csrRate(host: NodeHost): Promise<{ rate: number; p50: number }> {
  const dispatcher = pool(host);
  const pems = await Promise.all(
    Array.from({ length: csrs + 10 }, (_, i) => makeRequestPEM({ cn: `bench-${i}` })),
  );
  const watch = await issuedWatch(host, dispatcher);
  try {
    for (let i = 0; i < 10; i++) await csrRound(host, dispatcher, watch, `warm-${i}`, pems[csrs + i] ?? '');
    const samples: number[] = [];
    const start = performance.now();
    for (let i = 0; i < csrs; i++) {
      const t = performance.now();
      await csrRound(host, dispatcher, watch, `bench-${i}`, pems[i] ?? '');
      samples.push(performance.now() - t);
    }
    return { rate: (csrs / (performance.now() - start)) * 1000, p50: summarize(samples).p50 };
  } finally {
    watch.stop();
  }
}

/** One certificate signature per round, as the signer makes it (ECDSA P-256 CA, the request's key). */
async function x509Floor(): Promise<number> {
  const ca = await createCertificateAuthority({ commonName: 'bench-ca' });
  const subjectKey = (await generateKeyPair()).publicKey;
  const once = () =>
    x509().X509CertificateGenerator.create({
      serialNumber: randomSerialNumber(),
      subject: 'CN=bench',
      issuer: ca.certificate.subjectName,
      notBefore: new Date(),
      notAfter: new Date(Date.now() + 3_600_000),
      publicKey: subjectKey,
      signingKey: ca.keys.privateKey,
      signingAlgorithm: signatureParams(ca.keys.privateKey) as Algorithm,
    });
  for (let i = 0; i < 20; i++) await once();
  const start = performance.now();
  for (let i = 0; i < floorRounds; i++) await once();
  return (floorRounds / (performance.now() - start)) * 1000;
}

async function tokenRate(host: NodeHost): Promise<{ rate: number; p50: number } | string> {
  const dispatcher = pool(host);
  const path = '/api/v1/namespaces/default/serviceaccounts/default/token';
  const body = {
    apiVersion: 'authentication.orch.io/v1',
    kind: 'TokenRequest',
    spec: { audiences: ['bench'], expirationSeconds: 3600 },
  };
  // The service account controller makes `default` shortly after start.
  for (let i = 0; ; i++) {
    try {
      await call(host, dispatcher, 'POST', path, body);
      break;
    } catch (e) {
      if (i > 100) return `TokenRequest unavailable: ${e instanceof Error ? e.message : String(e)}`;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  for (let i = 0; i < 30; i++) await call(host, dispatcher, 'POST', path, body);
  const samples: number[] = [];
  const start = performance.now();
  for (let i = 0; i < tokens; i++) {
    const t = performance.now();
    await call(host, dispatcher, 'POST', path, body);
    samples.push(performance.now() - t);
  }
  return { rate: (tokens / (performance.now() - start)) * 1000, p50: summarize(samples).p50 };
}

async function joseFloor(): Promise<number> {
  const { privateKey } = await joseKeyPair('ES256');
  const once = () =>
    new SignJWT({ 'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'default', uid: 'u' } } })
      .setProtectedHeader({ alg: 'ES256', kid: 'k' })
      .setIssuer('https://orch.default.svc.cluster.local')
      .setAudience(['bench'])
      .setSubject('system:serviceaccount:default:default')
      .setIssuedAt()
      .setNotBefore('0s')
      .setExpirationTime('1h')
      .sign(privateKey);
  for (let i = 0; i < 20; i++) await once();
  const start = performance.now();
  for (let i = 0; i < floorRounds; i++) await once();
  return (floorRounds / (performance.now() - start)) * 1000;
}

export async function runCertificatesBench(): Promise<Figure[]> {
  const section = 'certificates (Node host, HTTPS, memory store, sequential)';
  const host = await startNodeHost({ port: 0, storage: 'memory' });
  const figures: Figure[] = [];
  try {
    const signed = await csrRate(host);
    const x509 = await x509Floor();
    const floorName = 'one @peculiar/x509 certificate signature (ECDSA P-256)';
    figures.push(
      {
        section,
        name: 'CSRs signed/s (create → approve → issued on a watch)',
        value: signed.rate,
        unit: '/s',
        floor: x509,
        floorName,
        higherIsBetter: true,
      },
      { section, name: 'CSR round trip p50', value: signed.p50, unit: 'ms', floor: 1000 / x509, floorName },
    );
    const minted = await tokenRate(host);
    const jose = await joseFloor();
    if (typeof minted === 'string') process.stderr.write(`${minted}\n`);
    else
      figures.push(
        {
          section,
          name: 'TokenRequests/s (serviceaccounts/default/token)',
          value: minted.rate,
          unit: '/s',
          floor: jose,
          floorName: 'one jose SignJWT (ES256)',
          higherIsBetter: true,
        },
        {
          section,
          name: 'TokenRequest p50',
          value: minted.p50,
          unit: 'ms',
          floor: 1000 / jose,
          floorName: 'one jose SignJWT (ES256)',
        },
      );
  } finally {
    await host.close();
  }
  return figures;
}
