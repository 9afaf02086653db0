/**
 * Helpers of the workload controllers' tests: polling an API path until
 * the controllers have done their part (bounded, with what was awaited in
 * the failure), and small builders of the objects the tests create.
 */

import type { TestHost } from './host';

// Tests read arbitrary JSON; narrowing happens in assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** GETs `path` until `done` holds for its body (default 15 s); throws with the last body otherwise. */
export async function waitFor(
  host: TestHost,
  path: string,
  done: (body: Json, status: number) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await host.request('GET', path);
    if (done(r.body, r.status)) return r.body;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last answer ${r.status}: ${r.text.slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The items of a list answer whose controller reference names `uid`. */
export function ownedBy(list: Json, uid: string): Json[] {
  return ((list?.items ?? []) as Json[]).filter((o) =>
    ((o.metadata?.ownerReferences ?? []) as Json[]).some((r) => r.uid === uid && r.controller === true),
  );
}

export function podTemplate(labels: Record<string, string>, image = 'nginx:1.25'): Json {
  return { metadata: { labels }, spec: { containers: [{ name: 'c', image }] } };
}

export async function createNamespace(host: TestHost, name: string): Promise<void> {
  const r = await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } });
  if (r.status !== 201) throw new Error(`namespace ${name}: ${r.status} ${r.text}`);
}

export function isReady(pod: Json): boolean {
  return ((pod?.status?.conditions ?? []) as Json[]).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** An autoscaling/v2 HPA of a Deployment, scaling on CPU utilization against `averageUtilization` percent. */
export function hpaBody(name: string, target: string, maxReplicas: number, averageUtilization = 50): Json {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
      minReplicas: 1,
      maxReplicas,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } } },
      ],
    },
  };
}
