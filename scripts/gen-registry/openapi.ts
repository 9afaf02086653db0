/**
 * Reads the upstream OpenAPI v3 documents (one per group/version) into the
 * few shapes the generator needs: the group/version a document serves, its
 * paths with operations, and the component schemas shared by all documents.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface UpstreamGvk {
  group: string;
  version: string;
  kind: string;
}

export interface Parameter {
  name: string;
  in: string;
}

interface MediaContent {
  schema?: { $ref?: string; type?: string };
}

export interface Operation {
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind'?: UpstreamGvk;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaContent> };
  responses?: Record<string, { content?: Record<string, MediaContent> }>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItem = { parameters?: Parameter[] } & Partial<Record<HttpMethod, Operation>>;

/** An upstream schema object; its keys are checked one by one when converted. */
export type RawSchema = Record<string, unknown>;

export interface GroupVersionDocument {
  /** Upstream group name (`''` for core). */
  group: string;
  version: string;
  /** Path prefix of the group/version, e.g. `/apis/apps/v1`. */
  prefix: string;
  paths: Record<string, PathItem>;
}

export interface OpenApiData {
  documents: GroupVersionDocument[];
  /** Every component schema by upstream name, merged over all documents. */
  schemas: Map<string, RawSchema>;
}

interface RawDocument {
  paths?: Record<string, PathItem>;
  components?: { schemas?: Record<string, RawSchema> };
}

/** Stable text of a JSON value with sorted keys, to compare schemas that several documents repeat. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * File names say which group/version a document serves: `api__v1_openapi.json`
 * for core, `apis__<group>__<version>_openapi.json` for the others. Group-only
 * and non-resource documents (`apis__apps_openapi.json`, `version_openapi.json`)
 * contribute schemas only.
 */
function groupVersionOf(file: string): { group: string; version: string } | undefined {
  if (file === 'api__v1_openapi.json') return { group: '', version: 'v1' };
  const match = /^apis__(.+)__(v[0-9a-z]+)_openapi\.json$/.exec(file);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { group: match[1], version: match[2] };
}

export function loadOpenApi(dir: string): OpenApiData {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('_openapi.json'))
    .sort();
  const documents: GroupVersionDocument[] = [];
  const schemas = new Map<string, RawSchema>();
  const seen = new Map<string, string>();
  for (const file of files) {
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as RawDocument;
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      const text = canonical(schema);
      const previous = seen.get(name);
      if (previous === undefined) {
        seen.set(name, text);
        schemas.set(name, schema);
      } else if (previous !== text) {
        throw new Error(`schema ${name} differs between documents (${file})`);
      }
    }
    const gv = groupVersionOf(file);
    if (gv === undefined) continue;
    const prefix = gv.group === '' ? '/api/v1' : `/apis/${gv.group}/${gv.version}`;
    documents.push({ ...gv, prefix, paths: doc.paths ?? {} });
  }
  return { documents, schemas };
}
