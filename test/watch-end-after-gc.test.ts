/**
 * The Node host ends a watch whose client is gone, garbage collected or not: a client whose connection
 * closes mid-watch (a kubectl killed during `get -w`), and an in-process informer stopped or client watch
 * aborted (the controllers' and the simulation's clients hand the server core their `Request` itself); and a
 * token webhook's call ends at its timeout. Each end travels as a `Request`'s `signal`; in Node that signal
 * follows the one the `Request` was made with only while the `Request` object lives (nodejs/node#55428),
 * which cost our kubectl its `--timeout` (decision 0096). A watch's end is read from
 * `apiserver_longrunning_requests` for namespaced PodTemplate watches, which only this test opens; full
 * collections are forced every 50 ms while the watch waits and after the client leaves. Relaying the
 * in-process `Request` through a copy makes those cases time out, so they guard that the server keeps the
 * `Request` it was handed for the watch's lifetime.
 */

import { createServer, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/client/client';
import { Informer } from '../src/client/informer';
import { tokenWebhookAuthenticator } from '../src/auth/authn/token-webhook';
import { nodeExternalFetch } from '../src/hosts/node/external-fetch';
import { PROFILES } from '../src/machinery/naming';
import { yamlLibrary } from '../src/machinery/decode/yaml-library';
import { startTestHost, type TestHost } from './support/host';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let host: TestHost;

/** Namespaced PodTemplate watches open now (only this test opens any). */
async function podTemplateWatches(): Promise<number> {
  const text = (await host.request('GET', '/metrics')).text;
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('apiserver_longrunning_requests{') &&
        l.includes('resource="podtemplates"') &&
        l.includes('scope="namespace"') &&
        l.includes('verb="WATCH"'),
    );
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Collects garbage every 50 ms until `podTemplateWatches` reads `n` (the test's timeout ends a watch never released). */
async function untilWatches(n: number): Promise<void> {
  for (;;) {
    collectGarbage();
    if ((await podTemplateWatches()) === n) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Lets several collections happen while the watch waits. */
async function collectAFewTimes(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  host = await startTestHost();
});

afterAll(async () => {
  await host.close();
});

describe('a watch ends when its client is gone, after garbage collections', () => {
  it('over HTTPS: the client connection closes mid-watch', async () => {
    const url = new URL('/api/v1/namespaces/default/podtemplates?watch=true', host.url);
    const req = httpsRequest(url, {
      headers: { authorization: `Bearer ${host.token}` },
      ...(host.caPEM !== undefined ? { ca: host.caPEM } : {}),
    });
    const status = await new Promise<number | undefined>((resolve, reject) => {
      req.once('response', (res) => resolve(res.statusCode));
      req.once('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    await untilWatches(1);
    await collectAFewTimes();
    req.once('error', () => undefined);
    req.destroy();
    await untilWatches(0);
  }, 20_000);

  it('in process: an informer is stopped', async () => {
    const client = createClient({
      baseUrl: 'http://orch.internal',
      fetch: (request) => host.api.fetch(request, { watchEventsAsObjects: true }),
      headers: { authorization: `Bearer ${host.token}` },
    });
    const informer = new Informer(
      client,
      { group: '', version: 'v1', resource: 'podtemplates', namespace: 'default' },
      {},
    );
    informer.start();
    await informer.synced;
    await untilWatches(1);
    await collectAFewTimes();
    informer.stop();
    await untilWatches(0);
  }, 20_000);

  it('in process: a client watch is aborted', async () => {
    const client = createClient({
      baseUrl: 'http://orch.internal',
      fetch: (request) => host.api.fetch(request, { watchEventsAsObjects: true }),
      headers: { authorization: `Bearer ${host.token}` },
    });
    const stop = new AbortController();
    const events = client.watch(
      { group: '', version: 'v1', resource: 'podtemplates', namespace: 'default' },
      {},
      stop.signal,
    );
    const reading = (async () => {
      try {
        for await (const _ of events) void _;
      } catch {
        // an aborted read may throw; the server's side is what is checked
      }
    })();
    await untilWatches(1);
    await collectAFewTimes();
    stop.abort();
    await untilWatches(0);
    await reading;
  }, 20_000);

  it("a token webhook's call times out", async () => {
    // A webhook that never answers; the call's own timeout (300 ms) ends it, well before the socket's (30 s).
    const held: ServerResponse[] = [];
    const server = createServer((_req, res) => void held.push(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const kubeconfig = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: webhook',
      '  cluster:',
      `    server: http://127.0.0.1:${port}/`,
      'users:',
      '- name: webhook',
      'contexts:',
      '- name: webhook',
      '  context: {cluster: webhook, user: webhook}',
      'current-context: webhook',
    ].join('\n');
    await yamlLibrary.load();
    const authenticator = tokenWebhookAuthenticator(
      { kubeconfig },
      {
        fetch: nodeExternalFetch(),
        profile: PROFILES.kubernetes,
        timeoutMs: 300,
        retry: { steps: 1, initialMs: 0, factor: 1 },
      },
    );
    const collector = setInterval(collectGarbage, 50);
    try {
      await expect(authenticator.authenticateToken('some-token')).rejects.toThrow(/abort/i);
    } finally {
      clearInterval(collector);
      for (const res of held) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 20_000);
});
