/**
 * The etcd backend beside the memory backend, in one run, through the Node
 * host's HTTPS API: ConfigMap creates per second (16 in flight), GET p99
 * and watch p99 (from sending a create to its event arriving on an open
 * watch). The etcd figures use a throwaway local member (`--unsafe-no-fsync`
 * where the installed etcd has it, so they show the client and server path,
 * not the disk); without /usr/bin/etcd the section says why and reports
 * the memory figures only.
 */

import { Agent } from 'undici';
import { startNodeHost, type NodeHost, type NodeHostOptions } from '../src/hosts/node/host';
import { etcdSkipReason, startEtcd } from '../test/support/etcd';
import { summarize, type Figure } from './report';

const creates = 500;
const gets = 500;
const watchSamples = 150;
const path = '/api/v1/namespaces/default/configmaps';

const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { app: 'bench' } },
  data: { key: name, other: 'x'.repeat(64) },
});

interface Measured {
  createRate: number;
  getP99: number;
  watchP99: number;
}

async function measure(options: NodeHostOptions): Promise<Measured> {
  const host = await startNodeHost({ port: 0, ...options });
  const agent = new Agent({ connect: host.caPEM !== undefined ? { ca: host.caPEM } : {} });
  const dispatcher = agent as unknown as RequestInit['dispatcher'];
  const call = (method: string, url: string, body?: unknown, signal?: AbortSignal) =>
    fetch(`${host.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      dispatcher,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
  try {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < creates) {
          const response = await call('POST', path, configMap(`c-${next++}`));
          if (response.status !== 201) throw new Error(`create answered ${response.status}`);
          await response.arrayBuffer();
        }
      }),
    );
    const createRate = (creates / (performance.now() - start)) * 1000;

    const getSamples: number[] = [];
    for (let i = 0; i < gets; i++) {
      const t = performance.now();
      const response = await call('GET', `${path}/c-${i % creates}`);
      await response.arrayBuffer();
      getSamples.push(performance.now() - t);
    }

    const watchP99 = summarize(await watchLatencies(host, call)).p99;
    return { createRate, getP99: summarize(getSamples).p99, watchP99 };
  } finally {
    await agent.close();
    await host.close();
  }
}

async function watchLatencies(
  host: NodeHost,
  call: (method: string, url: string, body?: unknown, signal?: AbortSignal) => Promise<Response>,
): Promise<number[]> {
  const controller = new AbortController();
  const response = await call(
    'GET',
    `${path}?watch=1&labelSelector=app%3Dwatch`,
    undefined,
    controller.signal,
  );
  const reader = (response.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream())
    .getReader();
  let buffer = '';
  const nextEvent = async (): Promise<void> => {
    for (;;) {
      const nl = buffer.indexOf('\n');
      if (nl >= 0) {
        buffer = buffer.slice(nl + 1);
        return;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('watch ended');
      buffer += value;
    }
  };
  const samples: number[] = [];
  for (let i = 0; i < watchSamples; i++) {
    const t = performance.now();
    const object = configMap(`w-${i}`);
    object.metadata.labels.app = 'watch';
    const event = nextEvent();
    const created = await call('POST', path, object);
    await created.arrayBuffer();
    await event;
    samples.push(performance.now() - t);
  }
  controller.abort();
  void host;
  return samples;
}

export async function runEtcdBench(): Promise<Figure[]> {
  const memory = await measure({ storage: 'memory' });
  const figures = (label: string, m: Measured, floor?: Measured): Figure[] => {
    const section = `etcd (${label})`;
    const floorName = 'memory backend, same run';
    return [
      {
        section,
        name: 'ConfigMap creates/s, 16 in flight',
        value: m.createRate,
        unit: '/s',
        higherIsBetter: true,
        ...(floor ? { floor: floor.createRate, floorName } : {}),
      },
      {
        section,
        name: 'GET p99',
        value: m.getP99,
        unit: 'ms',
        ...(floor ? { floor: floor.getP99, floorName } : {}),
      },
      {
        section,
        name: 'watch p99 (create → event)',
        value: m.watchP99,
        unit: 'ms',
        ...(floor ? { floor: floor.watchP99, floorName } : {}),
      },
    ];
  };
  const out = figures('memory backend', memory);
  const skip = etcdSkipReason();
  if (skip !== undefined) {
    process.stderr.write(`etcd backend skipped: ${skip}\n`);
    return out;
  }
  const member = await startEtcd();
  try {
    out.push(
      ...figures(
        'etcd backend, one local member',
        await measure({ storage: 'etcd', etcd: { servers: [member.url] } }),
        memory,
      ),
    );
  } finally {
    await member.stop();
  }
  return out;
}
