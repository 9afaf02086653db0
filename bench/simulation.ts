/**
 * The simulated cluster at class-demo scale in the Node host: 1,000 bare
 * pods over 50 simulated nodes. Figures: how fast the pods get Running
 * (created, scheduled, pulled, started, reported), beside the floor of
 * creating the same pods on a server without the simulation; and the
 * request figures (creates/s, GET p50/p99 of a ConfigMap, as the `node`
 * section measures them) with the 1,000 pods running idle, beside the same
 * figures on a server without the simulation, measured in the same run.
 */

import { Agent } from 'undici';
import { startNodeHost, type NodeHost } from '../src/hosts/node/host';
import type { Dispatcher } from './host-client';
import { createRate, getLatencies, type Client } from './node-host';
import type { Figure } from './report';

const pods = 1000;
const nodes = 50;
const section = `simulation (${pods} pods over ${nodes} nodes, memory store, HTTPS)`;

function podBody(i: number): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `scale-${i}`, labels: { app: 'scale' } },
    spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] },
  });
}

async function send(c: Client, method: string, path: string, body?: string): Promise<Response> {
  return fetch(`${c.host.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${c.host.token}`, 'content-type': 'application/json' },
    dispatcher: c.dispatcher,
    ...(body !== undefined ? { body } : {}),
  });
}

/** Pods created (16 in flight) per second; with the simulation, until all of them run. */
async function podsRate(c: Client, waitRunning: boolean): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < pods) {
        const r = await send(c, 'POST', '/api/v1/namespaces/default/pods', podBody(next++));
        if (r.status !== 201) throw new Error(`pod create answered ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
  // Done when no pod of the namespace is anything but Running. (A list with a selector carries no
  // remainingItemCount, as on the real server: counting the Running ones that way never reached 1,000,
  // which is how this bench once seemed to stall.)
  if (waitRunning)
    for (;;) {
      const r = await send(
        c,
        'GET',
        '/api/v1/namespaces/default/pods?fieldSelector=status.phase!=Running&limit=1',
      );
      const list = (await r.json()) as { items: unknown[] };
      if (list.items.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  return (pods / (performance.now() - start)) * 1000;
}

async function host(simulated: boolean): Promise<{ host: NodeHost; c: Client; agent: Agent }> {
  const h = await startNodeHost({
    port: 0,
    storage: 'memory',
    benchFloor: true,
    simulation: simulated ? { settings: { nodes, speed: 'instant' } } : false,
  });
  const agent = new Agent({ connect: h.caPEM !== undefined ? { ca: h.caPEM } : {} });
  return { host: h, c: { host: h, dispatcher: agent as unknown as Dispatcher }, agent };
}

async function requestFigures(c: Client): Promise<{ seq: number; par: number; p50: number; p99: number }> {
  const seq = await createRate(c, 1, 0);
  const par = await createRate(c, 16, 1000);
  const get = await getLatencies(c, 'bench-1');
  return { seq, par, p50: get.figure.p50, p99: get.figure.p99 };
}

export async function runSimulationBench(): Promise<Figure[]> {
  const plain = await host(false);
  const plainPods = await podsRate(plain.c, false);
  const plainFigures = await requestFigures(plain.c);
  await plain.agent.close();
  await plain.host.close();

  const sim = await host(true);
  // All fifty nodes registered and Ready before the clock starts.
  for (;;) {
    const r = await send(sim.c, 'GET', '/api/v1/nodes');
    const list = (await r.json()) as {
      items: { status?: { conditions?: { type: string; status: string }[] } }[];
    };
    if (
      list.items.filter((n) => n.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'))
        .length >= nodes
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const simPods = await podsRate(sim.c, true);
  // The start's writes (statuses, Events) are over: the cluster runs idle, as a class between steps.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const simFigures = await requestFigures(sim.c);
  await sim.agent.close();
  await sim.host.close();

  const floorName = 'same, server without the simulation';
  return [
    {
      section,
      name: 'pods Running/s (16 creates in flight)',
      value: simPods,
      unit: '/s',
      floor: plainPods,
      floorName: 'pod creates/s, no simulation',
      higherIsBetter: true,
    },
    {
      section,
      name: 'creates/s sequential',
      value: simFigures.seq,
      unit: '/s',
      floor: plainFigures.seq,
      floorName,
      higherIsBetter: true,
    },
    {
      section,
      name: 'creates/s 16 in flight',
      value: simFigures.par,
      unit: '/s',
      floor: plainFigures.par,
      floorName,
      higherIsBetter: true,
    },
    { section, name: 'GET p50', value: simFigures.p50, unit: 'ms', floor: plainFigures.p50, floorName },
    { section, name: 'GET p99', value: simFigures.p99, unit: 'ms', floor: plainFigures.p99, floorName },
  ];
}
