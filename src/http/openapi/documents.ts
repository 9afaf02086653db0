/**
 * Builds the OpenAPI documents from the catalog: one OpenAPI 3 document
 * per group/version (`api/v1`, `apis/<group>/<version>`) plus the small
 * ones the real server also lists (`api`, `apis`, `apis/<group>`,
 * `version`), and one Swagger 2.0 document of everything. Each holds the
 * paths of its resources and exactly the definitions they reach. Custom
 * resources are published under their own definition names
 * (`<reversed group>.<version>.<Kind>`) with their CRD schema.
 */

import type { JsonObject, JsonValue } from '../../api/meta';
import type { Catalog, ServedVersion } from '../../registry/catalog';
import type { ResourceType } from '../../registry/resource-type';
import {
  resourcePaths,
  groupWords,
  type BodyRef,
  type OperationModel,
  type ParamModel,
  type PathModel,
} from './operations';
import { SchemaRenderer } from './schema';
import { customResourceSchema } from './custom-resource-schema';

const meta = 'apimachinery.pkg.apis.meta.v1';
const reasons: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '401': 'Unauthorized',
};

interface Published {
  /** Definitions published under their own names (custom resources), already rendered. */
  extra: Map<string, JsonObject>;
  used: Set<string>;
}

function refOf(r: SchemaRenderer, ref: BodyRef, out: Published): JsonObject {
  if ('string' in ref) return { type: 'string' };
  if ('published' in ref)
    return { $ref: `${r.flavor === 'v2' ? '#/definitions/' : '#/components/schemas/'}${ref.published}` };
  out.used.add(ref.definition);
  return { $ref: r.refTo(ref.definition) };
}

function paramJson(r: SchemaRenderer, p: ParamModel): JsonObject {
  const base: JsonObject = { name: p.name, in: p.in, ...(p.required === true ? { required: true } : {}) };
  return r.flavor === 'v2'
    ? { ...base, type: p.type, uniqueItems: true }
    : { ...base, schema: { type: p.type, uniqueItems: true } };
}

function operationJson(r: SchemaRenderer, o: OperationModel, out: Published): JsonObject {
  const json: JsonObject = { operationId: o.operationId, tags: [o.tag] };
  const params = o.params.map((p) => paramJson(r, p));
  const responses: JsonObject = {};
  for (const resp of o.responses) {
    const description = reasons[resp.code] ?? '';
    if (resp.ref === undefined) responses[resp.code] = { description };
    else if (r.flavor === 'v2') responses[resp.code] = { description, schema: refOf(r, resp.ref, out) };
    else {
      const schema = refOf(r, resp.ref, out);
      const content: JsonObject = {};
      for (const t of o.produces) content[t] = { schema };
      responses[resp.code] = { description, content };
    }
  }
  if (r.flavor === 'v2') {
    json.consumes = o.consumes ?? ['*/*'];
    json.produces = o.produces;
    json.schemes = ['https'];
    if (o.body !== undefined)
      params.push({ name: 'body', in: 'body', required: true, schema: refOf(r, o.body.ref, out) });
  } else if (o.body !== undefined) {
    const schema = refOf(r, o.body.ref, out);
    const content: JsonObject = {};
    for (const t of o.body.contentTypes) content[t] = { schema };
    json.requestBody = { content, required: true };
  }
  if (params.length > 0) json.parameters = params;
  json.responses = responses;
  if (o.action !== undefined) json[r.ext('action')] = o.action;
  if (o.gvk !== undefined) json[r.ext('group-version-kind')] = { ...o.gvk };
  return json;
}

function pathsJson(r: SchemaRenderer, models: PathModel[], out: Published): JsonObject {
  const paths: JsonObject = {};
  for (const m of models) {
    const item: JsonObject = {};
    for (const o of m.operations) item[o.method] = operationJson(r, o, out);
    if (m.params.length > 0) item.parameters = m.params.map((p) => paramJson(r, p));
    paths[m.path] = item;
  }
  return paths;
}

/** `com.example.stable.v1.CronTab` for group `stable.example.com`. */
function customDefinitionName(rt: ResourceType, kind: string): string {
  return [...rt.group.split('.').reverse(), rt.version, kind].join('.');
}

function customResourceRefs(
  r: SchemaRenderer,
  rt: ResourceType,
  out: Published,
): { kindRef: BodyRef; listRef: BodyRef } {
  const kindName = customDefinitionName(rt, rt.kind);
  const listName = customDefinitionName(rt, rt.listKind);
  const gvk = (kind: string) => [{ group: rt.group, kind, version: rt.version }] as unknown as JsonValue;
  if (!out.extra.has(kindName)) {
    out.extra.set(kindName, {
      ...customResourceSchema(r, rt.schema, out.used),
      [r.ext('group-version-kind')]: gvk(rt.kind),
    });
    out.used.add(`${meta}.ListMeta`);
    // As the real builder's list schema: no type of its own.
    out.extra.set(listName, {
      required: ['items'],
      properties: {
        apiVersion: { type: 'string' },
        items: {
          type: 'array',
          items: { $ref: `${r.flavor === 'v2' ? '#/definitions/' : '#/components/schemas/'}${kindName}` },
        },
        kind: { type: 'string' },
        metadata: { $ref: r.refTo(`${meta}.ListMeta`) },
      },
      [r.ext('group-version-kind')]: gvk(rt.listKind),
    });
  }
  return { kindRef: { published: kindName }, listRef: { published: listName } };
}

function resourceModels(r: SchemaRenderer, rt: ResourceType, out: Published): PathModel[] {
  const refs =
    rt.custom || rt.definition === undefined
      ? customResourceRefs(r, rt, out)
      : { kindRef: { definition: rt.definition }, listRef: { definition: `${rt.definition}List` } };
  return resourcePaths({ profile: r.profile, rt, ...refs, protobuf: !rt.custom });
}

/** Every definition reachable from `used`, rendered (a Set's iteration also visits what rendering adds). */
function closure(r: SchemaRenderer, out: Published): JsonObject {
  const schemas: JsonObject = {};
  for (const name of out.used) {
    const def = r.definitions[name];
    if (def !== undefined) schemas[r.publishedName(name)] = r.renderDefinition(name, def, out.used);
  }
  for (const [name, schema] of out.extra) schemas[name] = schema;
  return sortKeys(schemas);
}

function sortKeys(o: JsonObject): JsonObject {
  const sorted: JsonObject = {};
  for (const k of Object.keys(o).sort()) sorted[k] = o[k] as JsonValue;
  return sorted;
}

function discoveryPath(
  r: SchemaRenderer,
  path: string,
  operationId: string,
  tag: string,
  definition: string,
): PathModel {
  const produces = ['application/json', 'application/yaml', r.profile.protobufMediaType];
  return {
    path,
    params: [],
    operations: [
      {
        method: 'get',
        operationId,
        tag,
        params: [],
        responses: [{ code: '200', ref: { definition } }, { code: '401' }],
        produces,
      },
    ],
  };
}

function groupVersionModels(r: SchemaRenderer, group: string, v: ServedVersion, out: Published): PathModel[] {
  const words = groupWords(r.profile, group);
  const camel = words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join('');
  const tag = `${words[0] ?? ''}${words
    .slice(1)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('')}_${v.version}`;
  const prefix = group === '' ? `/api/${v.version}/` : `/apis/${group}/${v.version}/`;
  const models = [
    discoveryPath(
      r,
      prefix,
      `get${camel}${v.version[0]?.toUpperCase()}${v.version.slice(1)}APIResources`,
      tag,
      `${meta}.APIResourceList`,
    ),
  ];
  for (const rt of v.resources.values()) models.push(...resourceModels(r, rt, out));
  return models.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function document(r: SchemaRenderer, models: PathModel[], out: Published, version: string): JsonObject {
  const paths = pathsJson(r, models, out);
  const schemas = closure(r, out);
  const title = r.profile.word[0]?.toUpperCase() + r.profile.word.slice(1);
  if (r.flavor === 'v3') {
    return {
      openapi: '3.0.0',
      info: { title, version: 'unversioned' },
      paths,
      components: {
        schemas,
        securitySchemes: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header' } },
      },
    };
  }
  return {
    swagger: '2.0',
    info: { title, version },
    paths,
    definitions: schemas,
    securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  };
}

function fresh(): Published {
  return { extra: new Map(), used: new Set() };
}

/** The OpenAPI 3 documents by index key (`api/v1`, `apis/apps/v1`, `api`, `apis`, `apis/apps`, `version`). */
export function buildV3Documents(catalog: Catalog): Map<string, JsonObject> {
  const r = new SchemaRenderer(catalog.profile, 'v3', catalog.definitions);
  const docs = new Map<string, JsonObject>();
  const single = (key: string, path: string, operationId: string, tag: string, definition: string): void => {
    const out = fresh();
    docs.set(key, document(r, [discoveryPath(r, path, operationId, tag, definition)], out, ''));
  };
  single('api', '/api/', 'getCoreAPIVersions', 'core', `${meta}.APIVersions`);
  single('apis', '/apis/', 'getAPIVersions', 'apis', `${meta}.APIGroupList`);
  single('version', '/version/', 'getCodeVersion', 'version', 'apimachinery.pkg.version.Info');
  for (const g of catalog.groups()) {
    if (g.name !== '') {
      const words = groupWords(catalog.profile, g.name);
      const camel = words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join('');
      single(`apis/${g.name}`, `/apis/${g.name}/`, `get${camel}APIGroup`, words.join(''), `${meta}.APIGroup`);
    }
    for (const v of g.versions) {
      const out = fresh();
      const key = g.name === '' ? `api/${v.version}` : `apis/${g.name}/${v.version}`;
      docs.set(key, document(r, groupVersionModels(r, g.name, v, out), out, ''));
    }
  }
  return docs;
}

/** The Swagger 2.0 document of every served group/version. */
export function buildV2Document(catalog: Catalog, version: string): JsonObject {
  const r = new SchemaRenderer(catalog.profile, 'v2', catalog.definitions);
  const out = fresh();
  const models: PathModel[] = [
    discoveryPath(r, '/api/', 'getCoreAPIVersions', 'core', `${meta}.APIVersions`),
    discoveryPath(r, '/apis/', 'getAPIVersions', 'apis', `${meta}.APIGroupList`),
  ];
  for (const g of catalog.groups())
    for (const v of g.versions) models.push(...groupVersionModels(r, g.name, v, out));
  models.push(discoveryPath(r, '/version/', 'getCodeVersion', 'version', 'apimachinery.pkg.version.Info'));
  return document(r, models, out, version);
}
