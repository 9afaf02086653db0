/**
 * The OpenAPI documents built from the catalog: every reference resolves,
 * kinds are findable the way kubectl finds them (group/version/kind on the
 * operations and definitions), the PATCH operation offers
 * `fieldValidation`, custom resources publish their schema, and profile
 * orch spells nothing the upstream way.
 */

import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../api/meta';
import { namingProfile, type ProfileName } from '../../machinery/naming';
import { Catalog } from '../../registry/catalog';
import { builtInDefinitions, builtInRegistry } from '../../registry/builtins';
import { parseRuntimeConfig } from '../../registry/runtime-config';
import type { ResourceType } from '../../registry/resource-type';
import { buildV2Document, buildV3Documents } from './documents';

function catalog(profile: ProfileName): Catalog {
  const c = new Catalog(namingProfile(profile), builtInDefinitions);
  c.loadBuiltIns(builtInRegistry, parseRuntimeConfig(undefined));
  return c;
}

function refs(value: JsonValue | undefined, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

const obj = (v: JsonValue | undefined): JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};

describe.each(['kubernetes', 'orch'] as const)('profile %s', (name) => {
  const profile = namingProfile(name);
  const c = catalog(name);
  const v3 = buildV3Documents(c);
  const v2 = buildV2Document(c, 'v1.27.16');
  const apps = `apis/apps/v1`;

  it('indexes every served group/version plus the discovery documents', () => {
    expect([...v3.keys()]).toEqual(
      expect.arrayContaining([
        'api',
        'apis',
        'version',
        'api/v1',
        apps,
        `apis/${profile.suffixed('rbac.authorization')}/v1`,
      ]),
    );
  });

  it('resolves every reference within its document', () => {
    for (const [key, doc] of v3) {
      const schemas = obj(obj(doc.components).schemas);
      for (const r of refs(doc))
        expect(schemas[r.replace('#/components/schemas/', '')], `${key}: ${r}`).toBeDefined();
    }
    const defs = obj(v2.definitions);
    for (const r of refs(v2)) expect(defs[r.replace('#/definitions/', '')], r).toBeDefined();
  });

  it('finds kinds through operations and definitions, and offers fieldValidation on PATCH', () => {
    const doc = v3.get(apps) ?? {};
    const gvkKey = profile.ext('group-version-kind');
    const item = obj(obj(doc.paths)['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']);
    const patch = obj(item.patch);
    expect(patch[gvkKey]).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(patch[profile.ext('action')]).toBe('patch');
    expect(patch.parameters).toContainEqual({
      name: 'fieldValidation',
      in: 'query',
      schema: { type: 'string', uniqueItems: true },
    });
    const deployment = obj(
      obj(obj(doc.components).schemas)[`${profile.definitionPrefix}api.apps.v1.Deployment`],
    );
    expect(deployment[gvkKey]).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    const spec = obj(
      obj(obj(obj(doc.components).schemas)[`${profile.definitionPrefix}api.apps.v1.DeploymentSpec`])
        .properties,
    );
    expect(obj(spec.strategy)[profile.ext('patch-strategy')]).toBe('retainKeys');
    const v2patch = obj(obj(obj(v2.paths)['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']).patch);
    expect(v2patch.parameters).toContainEqual({
      name: 'fieldValidation',
      in: 'query',
      type: 'string',
      uniqueItems: true,
    });
  });

  it('publishes custom resources under their own definition names', () => {
    const group = 'stable.example.com';
    const template = c.lookup('', 'v1', 'configmaps');
    if (template === undefined) throw new Error('no configmaps');
    const crontabs: ResourceType = {
      ...template,
      group,
      version: 'v1',
      resource: 'crontabs',
      singularName: 'crontab',
      kind: 'CronTab',
      listKind: 'CronTabList',
      subresources: new Map(),
      apiVersion: `${group}/v1`,
      storage: { group, resource: 'crontabs' },
      storageVersion: { apiVersion: `${group}/v1`, kind: 'CronTab' },
      schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' } } } },
      },
      custom: true,
    };
    delete crontabs.definition;
    c.addVersion(group, { version: 'v1', stability: 'stable', resources: new Map([['crontabs', crontabs]]) });
    const doc = buildV3Documents(c).get(`apis/${group}/v1`) ?? {};
    const schemas = obj(obj(doc.components).schemas);
    expect(obj(obj(schemas['com.example.stable.v1.CronTab']).properties).spec).toBeDefined();
    expect(obj(schemas['com.example.stable.v1.CronTab'])[profile.ext('group-version-kind')]).toEqual([
      { group, kind: 'CronTab', version: 'v1' },
    ]);
    const patch = obj(obj(obj(doc.paths)[`/apis/${group}/v1/namespaces/{namespace}/crontabs/{name}`]).patch);
    expect(Object.keys(obj(obj(patch.requestBody).content))).not.toContain(
      'application/strategic-merge-patch+json',
    );
    for (const r of refs(doc)) expect(schemas[r.replace('#/components/schemas/', '')], r).toBeDefined();
    c.removeGroup(group);
  });
});

describe('profile orch', () => {
  it('spells no upstream name anywhere', () => {
    const c = catalog('orch');
    const text = JSON.stringify([...buildV3Documents(c).values(), buildV2Document(c, 'v1.27.16')]);
    for (const upstream of ['kubernetes', 'k8s.io', 'io.k8s.'])
      expect(text.includes(upstream), upstream).toBe(false);
  });
});
