/**
 * Facts about the generated registry data that the rest of the server relies
 * on: discovery of the v1.27 groups, versions and resources, the schema
 * markers that merging and validation read, the v1.27 shape (no v1.28-only
 * group/versions or fields) and the protobuf descriptor. Reads only the
 * committed JSON, never the upstream reference data.
 */

import { Root, type INamespace, type Type } from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { resolveSchema, type DefinitionSet, type SchemaNode } from '../../machinery/schema';
import startDefinitionsJson from './definitions.json';
import lazyDefinitionsJson from './definitions-lazy.json';
import type { GeneratedRegistry, GeneratedResource, GeneratedVersion } from './format';
import protoJson from './proto.json';
import resourcesJson from './resources.json';

const registry = resourcesJson as GeneratedRegistry;
const startDefinitions = startDefinitionsJson as DefinitionSet;
const lazyDefinitions = lazyDefinitionsJson as DefinitionSet;
const definitions: DefinitionSet = { ...startDefinitions, ...lazyDefinitions };

function version(group: string, name: string): GeneratedVersion | undefined {
  return registry.groups.find((g) => g.name === group)?.versions.find((v) => v.version === name);
}

function resource(group: string, ver: string, name: string): GeneratedResource {
  const found = version(group, ver)?.resources.find((r) => r.name === name);
  if (found === undefined) throw new Error(`no ${group}/${ver}/${name}`);
  return found;
}

function property(definition: string, name: string): SchemaNode | undefined {
  return definitions[definition]?.properties?.[name];
}

const allVersions = registry.groups.flatMap((g) => g.versions.map((v) => ({ group: g, version: v })));
const allResources = allVersions.flatMap(({ group, version: v }) =>
  v.resources.map((r) => ({ group, version: v, r })),
);

const FULL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

describe('generated discovery', () => {
  it('describes v1.27', () => {
    expect(registry.release).toBe('v1.27');
  });

  it('enables exactly the group/versions v1.27 serves by default', () => {
    const enabled = allVersions
      .filter(({ version: v }) => v.enabledByDefault)
      .map(({ group, version: v }) => `${group.name === '' ? 'core' : group.name}/${v.version}`)
      .sort();
    expect(enabled).toEqual(
      [
        'admissionregistration/v1',
        'apiextensions/v1',
        'apiregistration/v1',
        'apps/v1',
        'authentication/v1',
        'authorization/v1',
        'autoscaling/v1',
        'autoscaling/v2',
        'batch/v1',
        'certificates/v1',
        'coordination/v1',
        'discovery/v1',
        'events/v1',
        'flowcontrol.apiserver/v1beta2',
        'flowcontrol.apiserver/v1beta3',
        'networking/v1',
        'node/v1',
        'policy/v1',
        'rbac.authorization/v1',
        'scheduling/v1',
        'storage/v1',
        'core/v1',
      ].sort(),
    );
    for (const { version: v } of allVersions) {
      if (v.stability === 'alpha') expect(v.enabledByDefault).toBe(false);
    }
  });

  it('stores group names neutrally', () => {
    const byName = new Map(registry.groups.map((g) => [g.name, g.suffixed]));
    expect(byName.get('')).toBe(false);
    for (const plain of ['apps', 'batch', 'autoscaling', 'policy']) expect(byName.get(plain)).toBe(false);
    for (const suffixed of [
      'rbac.authorization',
      'apiextensions',
      'apiregistration',
      'flowcontrol.apiserver',
      'storage',
    ]) {
      expect(byName.get(suffixed)).toBe(true);
    }
    expect(registry.groups[0]?.name).toBe('');
  });

  it('spells no upstream group suffix in any generated file', () => {
    for (const data of [resourcesJson, startDefinitionsJson, lazyDefinitionsJson, protoJson])
      expect(JSON.stringify(data)).not.toContain('k8s.io');
  });

  it('lists the preferred version first', () => {
    const first = (group: string) => registry.groups.find((g) => g.name === group)?.versions[0]?.version;
    expect(first('autoscaling')).toBe('v2');
    expect(first('flowcontrol.apiserver')).toBe('v1beta3');
    expect(first('authentication')).toBe('v1');
    expect(first('admissionregistration')).toBe('v1');
  });

  it('leaves out v1.28-only group/versions and kinds', () => {
    expect(version('admissionregistration', 'v1beta1')).toBeUndefined();
    expect(version('admissionregistration', 'v1alpha1')?.enabledByDefault).toBe(false);
    expect(version('authentication', 'v1')?.resources.map((r) => r.name)).toEqual(['tokenreviews']);
    expect(resource('authentication', 'v1beta1', 'selfsubjectreviews').verbs).toEqual(['create']);
  });

  it('sorts resources, subresources and verbs like upstream discovery', () => {
    const sorted = (list: string[]) => [...list].sort();
    for (const { version: v } of allVersions) {
      const names = v.resources.map((r) => r.name);
      expect(names).toEqual(sorted(names));
    }
    for (const { r } of allResources) {
      expect(r.verbs).toEqual(sorted(r.verbs));
      expect(r.subresources.map((s) => s.name)).toEqual(sorted(r.subresources.map((s) => s.name)));
      for (const s of r.subresources) expect(s.verbs).toEqual(sorted(s.verbs));
    }
  });

  it('describes apps/v1 deployments', () => {
    const deployments = resource('apps', 'v1', 'deployments');
    expect(deployments).toMatchObject({
      singularName: 'deployment',
      kind: 'Deployment',
      namespaced: true,
      verbs: FULL_VERBS,
      shortNames: ['deploy'],
      categories: ['all'],
      definition: 'api.apps.v1.Deployment',
    });
    expect(deployments.subresources).toEqual([
      {
        name: 'scale',
        kind: 'Scale',
        group: 'autoscaling',
        version: 'v1',
        verbs: ['get', 'patch', 'update'],
        definition: 'api.autoscaling.v1.Scale',
      },
      {
        name: 'status',
        kind: 'Deployment',
        verbs: ['get', 'patch', 'update'],
        definition: 'api.apps.v1.Deployment',
      },
    ]);
  });

  it('describes core pods and their subresources', () => {
    const pods = resource('', 'v1', 'pods');
    expect(pods).toMatchObject({
      namespaced: true,
      verbs: FULL_VERBS,
      shortNames: ['po'],
      categories: ['all'],
    });
    const sub = new Map(pods.subresources.map((s) => [s.name, s]));
    for (const name of [
      'status',
      'binding',
      'eviction',
      'log',
      'exec',
      'attach',
      'portforward',
      'proxy',
      'ephemeralcontainers',
    ]) {
      expect(sub.has(name), name).toBe(true);
    }
    expect(sub.get('eviction')).toEqual({
      name: 'eviction',
      kind: 'Eviction',
      group: 'policy',
      version: 'v1',
      verbs: ['create'],
      definition: 'api.policy.v1.Eviction',
    });
    expect(sub.get('binding')).toMatchObject({
      kind: 'Binding',
      verbs: ['create'],
      definition: 'api.core.v1.Binding',
    });
    expect(sub.get('log')).toMatchObject({ kind: 'Pod', verbs: ['get'] });
    expect(sub.get('exec')).toMatchObject({ kind: 'PodExecOptions', verbs: ['create', 'get'] });
    expect(sub.get('proxy')?.verbs).toEqual(['create', 'delete', 'get', 'patch', 'update']);
    expect(sub.get('ephemeralcontainers')).toMatchObject({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
  });

  it('describes namespaces as cluster-scoped with finalize and status', () => {
    const namespaces = resource('', 'v1', 'namespaces');
    expect(namespaces.namespaced).toBe(false);
    expect(namespaces.shortNames).toEqual(['ns']);
    expect(namespaces.verbs).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(namespaces.subresources.map((s) => [s.name, s.verbs])).toEqual([
      ['finalize', ['update']],
      ['status', ['get', 'patch', 'update']],
    ]);
  });

  it('describes the special core resources', () => {
    expect(resource('', 'v1', 'componentstatuses')).toMatchObject({
      namespaced: false,
      verbs: ['get', 'list'],
      shortNames: ['cs'],
    });
    expect(resource('', 'v1', 'bindings')).toMatchObject({
      namespaced: true,
      verbs: ['create'],
      kind: 'Binding',
    });
    expect(resource('', 'v1', 'events')).toMatchObject({ verbs: FULL_VERBS, shortNames: ['ev'] });
    expect(resource('events', 'v1', 'events')).toMatchObject({ verbs: FULL_VERBS, shortNames: ['ev'] });
    expect(resource('', 'v1', 'services').shortNames).toEqual(['svc']);
    expect(resource('', 'v1', 'configmaps').shortNames).toEqual(['cm']);
    const token = resource('', 'v1', 'serviceaccounts').subresources.find((s) => s.name === 'token');
    expect(token).toEqual({
      name: 'token',
      kind: 'TokenRequest',
      group: 'authentication',
      groupSuffixed: true,
      version: 'v1',
      verbs: ['create'],
      definition: 'api.authentication.v1.TokenRequest',
    });
  });

  it('describes the create-only review resources', () => {
    expect(resource('authentication', 'v1', 'tokenreviews')).toMatchObject({
      namespaced: false,
      verbs: ['create'],
    });
    for (const name of ['subjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews']) {
      expect(resource('authorization', 'v1', name)).toMatchObject({ namespaced: false, verbs: ['create'] });
    }
    expect(resource('authorization', 'v1', 'localsubjectaccessreviews')).toMatchObject({
      namespaced: true,
      verbs: ['create'],
    });
  });

  it('carries short names and categories of the other groups', () => {
    expect(resource('apiextensions', 'v1', 'customresourcedefinitions')).toMatchObject({
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
    });
    expect(resource('apiregistration', 'v1', 'apiservices').categories).toEqual(['api-extensions']);
    expect(resource('admissionregistration', 'v1', 'mutatingwebhookconfigurations').categories).toEqual([
      'api-extensions',
    ]);
    expect(resource('admissionregistration', 'v1', 'validatingwebhookconfigurations').categories).toEqual([
      'api-extensions',
    ]);
    expect(resource('autoscaling', 'v2', 'horizontalpodautoscalers')).toMatchObject({
      shortNames: ['hpa'],
      categories: ['all'],
    });
    expect(resource('autoscaling', 'v1', 'horizontalpodautoscalers')).toMatchObject({
      shortNames: ['hpa'],
      categories: ['all'],
    });
    expect(resource('batch', 'v1', 'cronjobs')).toMatchObject({ shortNames: ['cj'], categories: ['all'] });
    expect(resource('batch', 'v1', 'jobs')).toMatchObject({ categories: ['all'] });
    expect(resource('batch', 'v1', 'jobs').shortNames).toBeUndefined();
  });

  it('describes CSR approval', () => {
    const csr = resource('certificates', 'v1', 'certificatesigningrequests');
    expect(csr.namespaced).toBe(false);
    expect(csr.subresources.find((s) => s.name === 'approval')).toEqual({
      name: 'approval',
      kind: 'CertificateSigningRequest',
      verbs: ['get', 'patch', 'update'],
      definition: 'api.certificates.v1.CertificateSigningRequest',
    });
  });

  it('names definitions that exist and declare the resource kind', () => {
    for (const { group, version: v, r } of allResources) {
      const definition = definitions[r.definition];
      expect(definition, r.definition).toBeDefined();
      expect(definition?.gvk).toContainEqual({
        group: group.name,
        ...(group.suffixed && { groupSuffixed: true }),
        version: v.version,
        kind: r.kind,
      });
      for (const s of r.subresources) {
        if (s.definition !== undefined) expect(definitions[s.definition], s.definition).toBeDefined();
      }
    }
  });
});

describe('generated definitions', () => {
  it('keeps strategic merge markers', () => {
    const containers = property('api.core.v1.PodSpec', 'containers');
    expect(containers).toMatchObject({ type: 'array', patchStrategy: 'merge', patchMergeKey: 'name' });
    expect(containers?.items?.ref).toBe('api.core.v1.Container');
    expect(property('api.core.v1.Container', 'ports')).toMatchObject({
      listType: 'map',
      listMapKeys: ['containerPort', 'protocol'],
      patchStrategy: 'merge',
      patchMergeKey: 'containerPort',
    });
    expect(property('api.apps.v1.DeploymentSpec', 'strategy')).toMatchObject({
      ref: 'api.apps.v1.DeploymentStrategy',
      patchStrategy: 'retainKeys',
    });
  });

  it('flattens allOf wrappers into ref with sibling default', () => {
    expect(property('api.core.v1.Pod', 'metadata')).toEqual({
      ref: 'apimachinery.pkg.apis.meta.v1.ObjectMeta',
      default: {},
    });
    const resolved = resolveSchema(definitions, property('api.core.v1.Pod', 'spec'));
    expect(resolved?.properties?.containers).toBeDefined();
  });

  it('keeps maps, int-or-string and required fields', () => {
    expect(property('api.core.v1.ConfigMap', 'data')).toEqual({
      type: 'object',
      additionalProperties: { type: 'string', default: '' },
    });
    expect(definitions['apimachinery.pkg.util.intstr.IntOrString']?.intOrString).toBe(true);
    expect(definitions['api.apps.v1.DeploymentSpec']?.required).toEqual(['selector', 'template']);
    expect(property('api.core.v1.Container', 'name')).toMatchObject({ type: 'string' });
  });

  it('keeps the CRD schema markers as properties of JSONSchemaProps', () => {
    const props =
      definitions['apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps']?.properties ?? {};
    expect(Object.keys(props)).toEqual(
      expect.arrayContaining(['$ref', 'x-kubernetes-list-type', 'x-kubernetes-int-or-string']),
    );
  });

  it('leaves out v1.28-only fields', () => {
    expect(property('api.core.v1.Container', 'restartPolicy')).toBeUndefined();
    expect(property('api.core.v1.EphemeralContainer', 'restartPolicy')).toBeUndefined();
    expect(property('api.batch.v1.JobSpec', 'podReplacementPolicy')).toBeUndefined();
    expect(property('api.core.v1.PodStatus', 'hostIPs')).toBeUndefined();
    expect(definitions['api.core.v1.HostIP']).toBeUndefined();
    expect(definitions['api.authentication.v1.SelfSubjectReview']).toBeUndefined();
  });

  it('keeps the v1.27 fields that v1.28 removed', () => {
    expect(property('api.networking.v1.NetworkPolicy', 'status')?.ref).toBe(
      'api.networking.v1.NetworkPolicyStatus',
    );
    expect(property('api.core.v1.PersistentVolumeClaimStatus', 'resizeStatus')).toEqual({ type: 'string' });
    expect(resource('networking', 'v1', 'networkpolicies').subresources.map((s) => s.name)).toEqual([
      'status',
    ]);
  });

  it('holds the meta types', () => {
    for (const name of [
      'Status',
      'DeleteOptions',
      'WatchEvent',
      'APIResourceList',
      'APIGroupList',
      'Table',
      'PartialObjectMetadataList',
    ]) {
      expect(definitions[`apimachinery.pkg.apis.meta.v1.${name}`], name).toBeDefined();
    }
    expect(definitions['apimachinery.pkg.apis.meta.v1.Table']?.gvk).toEqual([
      { group: 'meta', groupSuffixed: true, version: 'v1', kind: 'Table' },
    ]);
  });

  it('spells gvk groups neutrally', () => {
    expect(definitions['api.apps.v1.Deployment']?.gvk).toEqual([
      { group: 'apps', version: 'v1', kind: 'Deployment' },
    ]);
    expect(definitions['api.rbac.v1.Role']?.gvk).toEqual([
      { group: 'rbac.authorization', groupSuffixed: true, version: 'v1', kind: 'Role' },
    ]);
  });

  it('resolves every ref and carries no description text', () => {
    const visit = (node: SchemaNode, where: string): void => {
      expect(Object.keys(node), where).not.toContain('description');
      if (node.ref !== undefined) expect(definitions[node.ref], `${where} → ${node.ref}`).toBeDefined();
      for (const [name, child] of Object.entries(node.properties ?? {})) visit(child, `${where}.${name}`);
      if (node.items !== undefined) visit(node.items, `${where}[]`);
      if (typeof node.additionalProperties === 'object') visit(node.additionalProperties, `${where}{}`);
    };
    for (const [name, definition] of Object.entries(definitions)) visit(definition, name);
  });
});

describe('the definitions’ two parts (the worker’s start path and the lazy script, 0134)', () => {
  const refsOf = (node: unknown, out: string[] = []): string[] => {
    if (Array.isArray(node)) for (const item of node) refsOf(item, out);
    else if (node !== null && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key === 'ref' && typeof value === 'string') out.push(value);
        else refsOf(value, out);
      }
    return out;
  };

  it('split the definitions without sharing one', () => {
    const start = Object.keys(startDefinitions);
    expect(start.filter((name) => lazyDefinitions[name] !== undefined)).toEqual([]);
    expect(start.length).toBeGreaterThan(200);
    expect(Object.keys(lazyDefinitions).length).toBeGreaterThan(200);
  });

  it('keep the start path’s part whole: it refers to no definition of the lazy part', () => {
    const refs = Object.values(startDefinitions).flatMap((def) => refsOf(def));
    expect(refs.length).toBeGreaterThan(300);
    expect(refs.filter((ref) => startDefinitions[ref] === undefined)).toEqual([]);
  });

  it('give every core resource and its status its definition on the start path', () => {
    for (const r of version('', 'v1')?.resources ?? []) {
      expect(startDefinitions[r.definition], r.name).toBeDefined();
      for (const s of r.subresources.filter((sub) => sub.name === 'status'))
        if (s.definition !== undefined)
          expect(startDefinitions[s.definition], `${r.name}/status`).toBeDefined();
    }
  });

  it('give no kind a definition in both parts (the encoders index each part as it comes)', () => {
    const kindsOf = (part: DefinitionSet) =>
      new Set(
        Object.values(part).flatMap((def) => (def.gvk ?? []).map((g) => `${g.group}/${g.version}|${g.kind}`)),
      );
    const start = kindsOf(startDefinitions);
    expect([...kindsOf(lazyDefinitions)].filter((kind) => start.has(kind))).toEqual([]);
  });
});

describe('generated protobuf descriptor', () => {
  const root = Root.fromJSON(protoJson as INamespace);
  root.resolveAll();
  const message = (name: string): Type => root.lookupType(name);

  it('holds the envelope, meta and kept group/versions', () => {
    expect(message('apimachinery.pkg.runtime.Unknown').fieldsArray.map((f) => [f.name, f.id])).toEqual([
      ['typeMeta', 1],
      ['raw', 2],
      ['contentEncoding', 3],
      ['contentType', 4],
    ]);
    for (const name of [
      'apimachinery.pkg.runtime.TypeMeta',
      'apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'apimachinery.pkg.apis.meta.v1.Status',
      'apimachinery.pkg.apis.meta.v1.WatchEvent',
      'apimachinery.pkg.util.intstr.IntOrString',
      'apimachinery.pkg.api.resource.Quantity',
      'apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
      'kube_aggregator.pkg.apis.apiregistration.v1.APIService',
      'api.core.v1.Pod',
      'api.flowcontrol.v1beta3.FlowSchema',
    ]) {
      expect(() => message(name), name).not.toThrow();
    }
    expect(root.lookup('api.admissionregistration.v1beta1')).toBeNull();
  });

  it('matches the v1.27 fields', () => {
    expect(message('api.core.v1.Container').fields.restartPolicy).toBeUndefined();
    expect(message('api.apps.v1.Deployment').fieldsArray.map((f) => [f.name, f.id])).toEqual([
      ['metadata', 1],
      ['spec', 2],
      ['status', 3],
    ]);
  });

  it('marks JSON names that differ and embedded structs', () => {
    expect(
      message('api.admissionregistration.v1.MutatingWebhookConfiguration').fields.Webhooks?.jsonName,
    ).toBe('webhooks');
    expect(message('api.core.v1.Volume').fields.volumeSource?.options).toEqual({ inline: true });
  });

  it('round-trips an object', () => {
    const meta = message('apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const value = { name: 'web', namespace: 'default', labels: { app: 'web' } };
    const decoded = meta.toObject(meta.decode(meta.encode(meta.fromObject(value)).finish()));
    expect(decoded).toEqual(value);
  });
});
