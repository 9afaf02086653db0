/**
 * Test fixture for apply scenarios (in the manner of the real server's
 * multiple-appliers tests): a kind whose schema has one field of every
 * merge strategy, variants of it for schema changes, and a runner that
 * plays Apply / ForceApply / Update steps by named managers against one
 * object, reporting the object, each manager's owned fields and conflicts.
 */

import type { KubeObject, ManagedFieldsEntry } from '../api/meta';
import { deepClone } from '../machinery/json';
import { namingProfile } from '../machinery/naming';
import type { DefinitionSet, SchemaNode } from '../machinery/schema';
import { ApplyConflictError } from './conflict';
import { apply, ignoreManagedFieldsTimestamps, updateManagedFields } from './field-manager';
import { fieldsV1ToSet } from './fields-v1';
import type { ObjectType } from './object-type';
import { pathString } from './path';

/** Scenarios use the upstream name of kubectl's last-applied annotation. */
export const lastAppliedAnnotation = namingProfile('kubernetes').subPrefixed(
  'kubectl',
  'last-applied-configuration',
);

const str: SchemaNode = { type: 'string' };
const int: SchemaNode = { type: 'integer' };

function widgetSpec(overrides: Record<string, SchemaNode> = {}): SchemaNode {
  return {
    type: 'object',
    properties: {
      replicas: int,
      image: str,
      tags: { type: 'array', items: str, listType: 'set' },
      args: { type: 'array', items: str, listType: 'atomic' },
      items: { type: 'array', items: { ref: 'test.Item' }, listType: 'map', listMapKeys: ['name'] },
      ports: {
        type: 'array',
        items: { ref: 'test.Port' },
        listType: 'map',
        listMapKeys: ['port', 'protocol'],
      },
      mergeList: {
        type: 'array',
        items: { ref: 'test.Keyed' },
        patchStrategy: 'merge',
        patchMergeKey: 'key',
      },
      finalizers: { type: 'array', items: str, patchStrategy: 'merge' },
      plainList: { type: 'array', items: { ref: 'test.Keyed' } },
      labels: { type: 'object', additionalProperties: str },
      selector: { type: 'object', additionalProperties: str, mapType: 'atomic' },
      config: { ref: 'test.Config' },
      atomicConfig: { ref: 'test.Config', mapType: 'atomic' },
      free: { type: 'object', preserveUnknownFields: true },
      ...overrides,
    },
  };
}

function widgetDefinitions(specOverrides: Record<string, SchemaNode> = {}): DefinitionSet {
  return {
    'test.Widget': {
      type: 'object',
      properties: {
        apiVersion: str,
        kind: str,
        metadata: { ref: 'apimachinery.pkg.apis.meta.v1.ObjectMeta', default: {} },
        spec: { ref: 'test.WidgetSpec', default: {} },
        status: { type: 'object', properties: { phase: str, count: int }, default: {} },
      },
    },
    'test.WidgetSpec': widgetSpec(specOverrides),
    'test.Item': { type: 'object', properties: { name: str, value: str, extra: str }, required: ['name'] },
    'test.Port': {
      type: 'object',
      properties: { port: int, protocol: { type: 'string', default: 'TCP' }, target: int },
      required: ['port'],
    },
    'test.Keyed': { type: 'object', properties: { key: str, v: str } },
    'test.Config': {
      type: 'object',
      properties: { a: str, b: str, nested: { type: 'object', properties: { c: str, d: str } } },
    },
    'apimachinery.pkg.apis.meta.v1.ObjectMeta': {
      type: 'object',
      properties: {
        name: str,
        namespace: str,
        uid: str,
        resourceVersion: str,
        generation: int,
        creationTimestamp: { type: 'string', format: 'date-time' },
        labels: { type: 'object', additionalProperties: str },
        annotations: { type: 'object', additionalProperties: str },
        finalizers: { type: 'array', items: str, patchStrategy: 'merge' },
        managedFields: { type: 'array', items: { type: 'object' } },
      },
    },
  };
}

/** The test kind `Widget` (example.com/v1), held as Go structs like a built-in kind, with a status subresource. */
export function widgetType(
  specOverrides: Record<string, SchemaNode> = {},
  opts: { statusSubresource?: boolean; goStructs?: boolean } = {},
): ObjectType {
  return {
    definitions: widgetDefinitions(specOverrides),
    root: { ref: 'test.Widget' },
    statusSubresource: opts.statusSubresource ?? true,
    goStructs: opts.goStructs ?? true,
  };
}

/** Objects without a schema: keys are struct fields, every list is atomic. */
export function unstructuredType(): ObjectType {
  return { definitions: widgetDefinitions(), root: undefined };
}

export const widgetApiVersion = 'example.com/v1';

export function widget(spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: widgetApiVersion, kind: 'Widget', metadata: { name: 'w' }, spec, ...extra };
}

interface StepBase {
  subresource?: string;
  /** The schema in effect for this step (schema changes between steps). */
  type?: ObjectType;
  apiVersion?: string;
  /** Expected conflicts as `owner: field` texts (absent: the step succeeds). */
  conflicts?: string[];
  /** Expected failure other than a conflict. */
  error?: RegExp;
}

export type Step =
  | (StepBase & { apply: string; config: KubeObject; force?: boolean })
  | (StepBase & { update: string; object: KubeObject | ((live: KubeObject | undefined) => KubeObject) });

export interface StepResult {
  ok: boolean;
  conflicts?: string[];
  message?: string;
}

/** `alice` for an Apply entry, `bob update` for an Update entry, with ` /status` for a subresource. */
export function entryLabel(e: ManagedFieldsEntry): string {
  return `${e.manager ?? ''}${e.operation === 'Update' ? ' update' : ''}${e.subresource !== undefined ? ` /${e.subresource}` : ''}`;
}

/** Each entry's owned fields as sorted path texts. */
export function ownership(obj: KubeObject | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of obj?.metadata?.managedFields ?? [])
    out[entryLabel(e)] = fieldsV1ToSet(e.fieldsV1).paths().map(pathString).sort();
  return out;
}

/** The object without managedFields (what the scenarios compare). */
export function payload(obj: KubeObject | undefined): KubeObject | undefined {
  if (obj === undefined) return undefined;
  const c = deepClone(obj);
  if (c.metadata !== undefined) delete c.metadata.managedFields;
  return c;
}

export class Fixture {
  live: KubeObject | undefined;
  now = new Date('2024-05-01T12:00:00Z');
  constructor(
    public type: ObjectType,
    public apiVersion = widgetApiVersion,
    public kind = 'Widget',
  ) {}

  /** Runs one step; a failed step leaves the object unchanged. */
  run(step: Step): StepResult {
    this.now = new Date(this.now.getTime() + 1000);
    const type = step.type ?? this.type;
    const subresource = step.subresource ?? '';
    const apiVersion = step.apiVersion ?? this.apiVersion;
    let written: KubeObject;
    try {
      if ('apply' in step) {
        written = apply({
          type,
          live: this.live,
          config: deepClone(step.config),
          manager: step.apply,
          apiVersion,
          kind: this.kind,
          subresource,
          force: step.force ?? false,
          now: this.now,
          lastAppliedAnnotation,
        });
      } else {
        const next =
          typeof step.object === 'function' ? step.object(deepClone(this.live)) : deepClone(step.object);
        written = updateManagedFields({
          type,
          live: this.live,
          next,
          manager: step.update,
          apiVersion,
          subresource,
          now: this.now,
        });
      }
    } catch (e) {
      if (e instanceof ApplyConflictError)
        return { ok: false, conflicts: e.conflicts.map((c) => `${c.owner}: ${c.field}`), message: e.message };
      return { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    this.live = ignoreManagedFieldsTimestamps(
      resetByStrategy(type, subresource, this.live, written),
      this.live,
    );
    return { ok: true };
  }
}

/** What the strategy does after the field manager: the main resource keeps the stored status, `/status` keeps everything else. */
function resetByStrategy(
  type: ObjectType,
  subresource: string,
  old: KubeObject | undefined,
  next: KubeObject,
): KubeObject {
  if (type.statusSubresource !== true) return next;
  if (subresource === '') {
    const out = { ...next };
    if (old?.status === undefined) delete out.status;
    else out.status = deepClone(old.status);
    return out;
  }
  if (subresource === 'status' && old !== undefined) {
    const out: KubeObject = {
      ...deepClone(old),
      metadata: { ...deepClone(old.metadata ?? {}), managedFields: next.metadata?.managedFields ?? [] },
    };
    if (next.metadata?.managedFields === undefined && out.metadata !== undefined)
      delete out.metadata.managedFields;
    if (next.status === undefined) delete out.status;
    else out.status = next.status;
    return out;
  }
  return next;
}
