/**
 * The served resources of one CRD: a ResourceType per served version, under
 * the names the naming controller accepted (status.acceptedNames), scoped
 * as the CRD says, with the status and scale subresources it declares, its
 * short names and categories, the storage version every version stores in
 * (conversion None relabels apiVersion), deprecation warnings, and the
 * facts of its schema. Facts are built once per CRD spec and reused while
 * only the CRD's status changes.
 */

import type { NamingProfile } from '../../machinery/naming';
import type { DefinitionSet, SchemaNode } from '../../machinery/schema';
import { customResourceBehavior } from '../kind-behavior';
import { apiVersionOf, type ResourceType, type SubresourceType } from '../resource-type';
import { customResourceFacts, type CustomResourceFacts } from './facts';
import { OBJECT_META } from './prune';
import { compileSchemaRules } from './rules';
import { isRaw, toSchemaNode } from './schema-props';
import {
  isConditionTrue,
  stabilityOf,
  type CrdColumn,
  type CrdVersion,
  type CustomResourceDefinition,
} from './types';

const verbs = new Set(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
const subresourceVerbs = new Set(['get', 'patch', 'update']);

/** The real server's default column when a version declares none. */
const ageColumn: CrdColumn = {
  name: 'Age',
  type: 'date',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.',
  jsonPath: '.metadata.creationTimestamp',
};

/** The schema as served: apiVersion, kind and metadata (ObjectMeta) are always there. */
function servedSchema(schema: SchemaNode): SchemaNode {
  return {
    ...schema,
    type: 'object',
    properties: {
      ...schema.properties,
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { ref: OBJECT_META },
    },
  };
}

export class ResourceBuilder {
  private readonly facts = new Map<string, { spec: string; byVersion: Map<string, CustomResourceFacts> }>();

  constructor(
    private readonly profile: NamingProfile,
    private readonly definitions: DefinitionSet,
  ) {}

  forget(crdName: string): void {
    this.facts.delete(crdName);
  }

  private factsFor(crd: CustomResourceDefinition, v: CrdVersion, terminating: boolean): CustomResourceFacts {
    const name = crd.metadata?.name ?? '';
    const spec = JSON.stringify(crd.spec ?? {});
    let entry = this.facts.get(name);
    if (entry?.spec !== spec) {
      entry = { spec, byVersion: new Map() };
      this.facts.set(name, entry);
    }
    const cacheKey = `${v.name ?? ''}/${terminating}`;
    let facts = entry.byVersion.get(cacheKey);
    if (facts === undefined) {
      const raw = v.schema?.openAPIV3Schema;
      const schema = isRaw(raw)
        ? toSchemaNode(this.profile, raw)
        : { type: 'object' as const, preserveUnknownFields: true };
      const scale = v.subresources?.scale;
      facts = customResourceFacts({
        crdName: name,
        definitions: this.definitions,
        schema,
        rules: () => compileSchemaRules(this.profile, schema, '').compiled,
        columns:
          (v.additionalPrinterColumns ?? []).length > 0 ? (v.additionalPrinterColumns ?? []) : [ageColumn],
        ...(scale !== undefined
          ? {
              scale: {
                specReplicasPath: scale.specReplicasPath ?? '',
                statusReplicasPath: scale.statusReplicasPath ?? '',
                ...(scale.labelSelectorPath !== undefined && scale.labelSelectorPath !== ''
                  ? { labelSelectorPath: scale.labelSelectorPath }
                  : {}),
              },
            }
          : {}),
        terminating,
      });
      entry.byVersion.set(cacheKey, facts);
    }
    return facts;
  }

  /** The resources a CRD serves now (none until it is Established). */
  build(crd: CustomResourceDefinition): ResourceType[] {
    if (!isConditionTrue(crd, 'Established')) return [];
    const spec = crd.spec ?? {};
    const names = crd.status?.acceptedNames ?? {};
    const group = spec.group ?? '';
    const plural = names.plural ?? '';
    const kind = names.kind ?? '';
    if (group === '' || plural === '' || kind === '') return [];
    const storage = (spec.versions ?? []).find((v) => v.storage === true);
    const terminating = isConditionTrue(crd, 'Terminating');
    const out: ResourceType[] = [];
    for (const v of spec.versions ?? []) {
      if (v.served !== true || v.name === undefined) continue;
      const facts = this.factsFor(crd, v, terminating);
      const subresources = new Map<string, SubresourceType>();
      if (v.subresources?.status !== undefined)
        subresources.set('status', { name: 'status', kind, verbs: subresourceVerbs });
      if (v.subresources?.scale !== undefined)
        subresources.set('scale', {
          name: 'scale',
          kind: 'Scale',
          group: 'autoscaling',
          version: 'v1',
          verbs: subresourceVerbs,
          definition: 'api.autoscaling.v1.Scale',
        });
      out.push({
        group,
        version: v.name,
        resource: plural,
        singularName: names.singular ?? kind.toLowerCase(),
        kind,
        listKind: names.listKind ?? `${kind}List`,
        namespaced: spec.scope === 'Namespaced',
        verbs,
        shortNames: names.shortNames ?? [],
        categories: names.categories ?? [],
        subresources,
        apiVersion: apiVersionOf(group, v.name),
        storage: { group, resource: plural },
        storageVersion: { apiVersion: apiVersionOf(group, storage?.name ?? v.name), kind },
        ...(v.deprecated === true
          ? {
              deprecation: {
                warning: v.deprecationWarning ?? `${group}/${v.name} ${kind} is deprecated`,
                removedRelease: '',
              },
            }
          : {}),
        schema: servedSchema(facts.schema),
        stability: stabilityOf(v.name),
        behavior: customResourceBehavior(),
        custom: true,
        crd: facts,
      });
    }
    return out;
  }
}
