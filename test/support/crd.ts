/**
 * CRD helpers for the integration suites: build a CRD body around a schema,
 * create it and wait until the server reports it Established (the
 * controllers run in-process; waiting is polling on the condition, never a
 * timing assertion), and read the causes of a 422.
 */

import type { TestHost, TestResponse } from './host';

export type Json = Record<string, unknown>;

export interface CrdOptions {
  group: string;
  plural?: string;
  kind?: string;
  scope?: 'Namespaced' | 'Cluster';
  /** Extra fields of the (single) version: subresources, additionalPrinterColumns, ... */
  version?: Json;
  /** Replaces the generated versions entirely. */
  versions?: Json[];
  names?: Json;
  spec?: Json;
  metadata?: Json;
  /** `apiextensions.<suffix>` of the host's profile. */
  apiGroup?: string;
}

export function crdBody(schema: Json | undefined, o: CrdOptions): Json {
  const plural = o.plural ?? 'widgets';
  const kind = o.kind ?? 'Widget';
  return {
    apiVersion: `${o.apiGroup ?? 'apiextensions.orch.io'}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${o.group}`, ...o.metadata },
    spec: {
      group: o.group,
      scope: o.scope ?? 'Namespaced',
      names: { plural, kind, ...o.names },
      versions: o.versions ?? [
        {
          name: 'v1',
          served: true,
          storage: true,
          ...(schema !== undefined ? { schema: { openAPIV3Schema: schema } } : {}),
          ...o.version,
        },
      ],
      ...o.spec,
    },
  };
}

/** A root schema with `spec` (and `status`) as given. */
export function withSpec(spec: Json, status?: Json): Json {
  return { type: 'object', properties: { spec, ...(status !== undefined ? { status } : {}) } };
}

export function crdsPath(apiGroup = 'apiextensions.orch.io'): string {
  return `/apis/${apiGroup}/v1/customresourcedefinitions`;
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function condition(crd: Json | undefined, type: string): Json | undefined {
  const conditions = ((crd?.status as Json | undefined)?.conditions ?? []) as Json[];
  return conditions.find((c) => c.type === type);
}

/** Creates the CRD and waits for Established=True; returns the CRD as then stored. */
export async function createEstablished(h: TestHost, body: Json, apiGroup?: string): Promise<Json> {
  const created = await h.request('POST', crdsPath(apiGroup), { body });
  if (created.status !== 201) throw new Error(`CRD create failed: ${created.status} ${created.text}`);
  const name = (body.metadata as Json).name as string;
  return eventually(async () => {
    const r = await h.request('GET', `${crdsPath(apiGroup)}/${name}`);
    return condition(r.body as Json, 'Established')?.status === 'True' ? (r.body as Json) : undefined;
  }, `${name} to be Established`);
}

/** The causes of a 422 as `field: message` lines. */
export function causes(r: TestResponse): string[] {
  const list = (r.body?.details?.causes ?? []) as { field?: string; message?: string }[];
  return list.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
}

/** The items of a Warning header, unquoted. */
export function warnings(r: TestResponse): string[] {
  const header = r.headers.get('warning');
  if (header === null) return [];
  return [...header.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map(
    (m) => JSON.parse(`"${m[1] ?? ''}"`) as string,
  );
}
