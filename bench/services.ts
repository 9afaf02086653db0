/**
 * What the Service allocators cost: ClusterIP Service creates per second
 * (one at a time and 16 in flight, each taking a cluster IP) beside
 * ConfigMap creates of about the same size on the same host in the same run
 * (the floor: the same write path without allocation). The memory store
 * over plain HTTP, so the figure is the server's own work; the service range
 * is a /16 so the run never fills it.
 */

import { startNodeHost } from '../src/hosts/node/host';
import type { Figure } from './report';

const creates = 400;
const base = '/api/v1/namespaces/default';

function configMap(i: number): unknown {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `bench-${i}`, labels: { app: 'bench' } },
    data: { port: '80', target: '8080' },
  };
}

function service(i: number): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `bench-${i}`, labels: { app: 'bench' } },
    spec: { type: 'ClusterIP', selector: { app: `bench-${i}` }, ports: [{ port: 80, targetPort: 8080 }] },
  };
}

async function rate(
  url: string,
  auth: Record<string, string>,
  resource: string,
  make: (i: number) => unknown,
  width: number,
  offset: number,
  count = creates,
): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = offset + next++;
        const r = await fetch(`${url}${base}/${resource}`, {
          method: 'POST',
          body: JSON.stringify(make(i)),
          headers: { 'content-type': 'application/json', ...auth },
        });
        if (r.status !== 201) throw new Error(`create answered ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
  return (count / (performance.now() - start)) * 1000;
}

export async function runServicesBench(): Promise<Figure[]> {
  const host = await startNodeHost({
    port: 0,
    storage: 'memory',
    insecureHttp: true,
    serviceClusterIPRange: '10.96.0.0/16',
  });
  const auth = { authorization: `Bearer ${host.token}` };
  const section = 'services (memory store, HTTP, allocator on)';
  const floorName = 'ConfigMap creates, same host and run';
  const figures: Figure[] = [];
  try {
    // Warm both paths so neither pays the first-request cost.
    await rate(host.url, auth, 'configmaps', configMap, 1, 100_000, 20);
    await rate(host.url, auth, 'services', service, 1, 100_000, 20);
    for (const width of [1, 16]) {
      // Alternating rounds, so a burst of load elsewhere on the machine falls on both paths alike.
      const rounds = 4;
      const cmRates: number[] = [];
      const svcRates: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const offset = (width === 1 ? 0 : creates) + round * 10_000;
        cmRates.push(await rate(host.url, auth, 'configmaps', configMap, width, offset, creates / rounds));
        svcRates.push(await rate(host.url, auth, 'services', service, width, offset, creates / rounds));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
      const cm = median(cmRates);
      const svc = median(svcRates);
      figures.push({
        section,
        name: `ClusterIP Service creates/s, ${width === 1 ? 'sequential' : '16 in flight'}`,
        value: svc,
        unit: '/s',
        floor: cm,
        floorName,
        higherIsBetter: true,
      });
    }
  } finally {
    await host.close();
  }
  return figures;
}
