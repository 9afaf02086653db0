/**
 * Test support for the simulated cluster: waiting for what the scheduler,
 * node agents and controllers do (they act asynchronously; a wait is
 * bounded, never a timing assertion), moving the server's clock, stopping
 * and starting nodes, and pod manifests.
 */

import type { TestHost, TestResponse } from './host';

/** An object as the API returned it (tests read arbitrary JSON; narrowing happens in assertions). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Obj = any;

/** Polls `check` until it returns a value (not undefined), or fails with `what` after `ms` of real time. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last !== undefined ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Moves the server's clock forward through the sandbox API. */
export async function advance(host: TestHost, duration: string): Promise<TestResponse> {
  const r = await host.request('POST', '/sandbox/v1/clock', { body: { advance: duration } });
  if (r.status !== 200) throw new Error(`clock advance failed: ${r.text}`);
  return r;
}

export async function getPod(host: TestHost, name: string, namespace = 'default') {
  const r = await host.request('GET', `/api/v1/namespaces/${namespace}/pods/${name}`);
  return r.status === 200 ? r.body : undefined;
}

/** The pod once `check` holds for it. */
export function podWhen(
  host: TestHost,
  name: string,
  what: string,
  check: (pod: Obj) => boolean,
  namespace = 'default',
) {
  return until(`pod ${name} ${what}`, async () => {
    const pod = await getPod(host, name, namespace);
    return pod !== undefined && check(pod) ? pod : undefined;
  });
}

export const isRunningReady = (pod: Obj) =>
  pod.status?.phase === 'Running' &&
  pod.status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True');

export function waiting(pod: Obj, container?: string): string | undefined {
  const statuses = pod.status?.containerStatuses ?? [];
  const s = container === undefined ? statuses[0] : statuses.find((x: Obj) => x.name === container);
  return s?.state?.waiting?.reason;
}

/** The Events about an object, oldest first, as `Type Reason: message`. */
export async function eventsOf(host: TestHost, name: string, namespace = 'default'): Promise<string[]> {
  const r = await host.request(
    'GET',
    `/api/v1/namespaces/${namespace}/events?fieldSelector=involvedObject.name=${name}`,
  );
  return (r.body.items ?? []).map((e: Obj) => `${e.type} ${e.reason}: ${e.message ?? e.note}`);
}

export function pod(name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec };
}

export async function createPod(
  host: TestHost,
  manifest: unknown,
  namespace = 'default',
): Promise<TestResponse> {
  const r = await host.request('POST', `/api/v1/namespaces/${namespace}/pods`, { body: manifest });
  if (r.status !== 201) throw new Error(`pod create failed: ${r.text}`);
  return r;
}

/** Waits until every simulated node is Ready (and its not-ready taint gone). */
export function nodesReady(host: TestHost, count = 3) {
  return until(`${count} Ready nodes`, async () => {
    const r = await host.request('GET', '/api/v1/nodes');
    const ready = (r.body.items ?? []).filter(
      (n: Obj) =>
        n.status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True') &&
        (n.spec?.taints ?? []).length === 0,
    );
    return ready.length === count ? ready : undefined;
  });
}
