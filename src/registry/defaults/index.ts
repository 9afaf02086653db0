/**
 * Defaulting of built-in kinds: the real server's SetDefaults_* functions
 * of v1.27, run where it runs them — when a body is decoded into the kind's
 * type, before admission — on create, update, every patch and apply. The
 * functions are keyed by the definition they default (`api.core.v1.PodSpec`),
 * and a walk over the object beside its schema calls them parent first, so
 * a PodSpec is defaulted wherever it appears (Pod, Deployment, CronJob, ...).
 */

import type { NamingProfile } from '../../machinery/naming';
import { resolveSchema, type DefinitionSet, type SchemaNode } from '../../machinery/schema';
import { isPlainObject } from '../../machinery/json';
import type { Defaulter, DefaultingContext } from './helpers';
import { coreDefaults } from './core';
import { appsDefaults } from './apps';
import { batchDefaults } from './batch';
import { networkingDefaults } from './networking';
import { rbacDefaults } from './rbac';
import { storageDefaults } from './storage';
import { schedulingDefaults } from './scheduling';
import { autoscalingDefaults } from './autoscaling';
import { discoveryDefaults } from './discovery';
import { admissionDefaults } from './admissionregistration';
import { extensionDefaults } from './apiextensions';
import { flowcontrolDefaults } from './flowcontrol';

export type { DefaultingContext } from './helpers';

const defaulters: Readonly<Record<string, Defaulter>> = {
  ...coreDefaults,
  ...appsDefaults,
  ...batchDefaults,
  ...networkingDefaults,
  ...rbacDefaults,
  ...storageDefaults,
  ...schedulingDefaults,
  ...autoscalingDefaults,
  ...discoveryDefaults,
  ...admissionDefaults,
  ...extensionDefaults,
  ...flowcontrolDefaults,
};

/** Feature gates that change defaulting, as v1.27 sets them by default. */
export const defaultingGates: Readonly<Record<string, boolean>> = {
  StatefulSetAutoDeletePVC: true,
  MaxUnavailableStatefulSet: false,
  SELinuxMountReadWriteOncePod: true,
};

/** The context for a server's profile and feature gates (unset gates take their v1.27 default). */
export function defaultingContext(
  profile: NamingProfile,
  gates: Readonly<Record<string, boolean>> = {},
): DefaultingContext {
  return { profile, gate: (name) => gates[name] ?? defaultingGates[name] ?? false };
}

/**
 * Applies the defaults of the kind whose top definition is `definition`
 * (e.g. `api.apps.v1.Deployment`) to `obj`, in place.
 */
export function applyDefaults(
  defs: DefinitionSet,
  definition: string,
  obj: Record<string, unknown>,
  ctx: DefaultingContext,
): void {
  walk(defs, { ref: definition }, obj, ctx);
}

function walk(
  defs: DefinitionSet,
  node: SchemaNode | undefined,
  value: unknown,
  ctx: DefaultingContext,
): void {
  if (node === undefined) return;
  if (Array.isArray(value)) {
    const items = resolveSchema(defs, node)?.items;
    if (items !== undefined) for (const item of value) walk(defs, items, item, ctx);
    return;
  }
  if (!isPlainObject(value)) return;
  if (node.ref !== undefined) defaulters[node.ref]?.(value, ctx);
  const resolved = resolveSchema(defs, node);
  if (resolved === undefined) return;
  if (resolved.properties !== undefined) {
    for (const [key, child] of Object.entries(resolved.properties))
      if (value[key] !== undefined) walk(defs, child, value[key], ctx);
  } else if (typeof resolved.additionalProperties === 'object') {
    const element = resolved.additionalProperties;
    // A map of scalars (labels, a ConfigMap's data) holds nothing to default: no walk over its keys.
    const e = element.ref === undefined ? resolveSchema(defs, element) : undefined;
    if (
      e !== undefined &&
      e.properties === undefined &&
      e.items === undefined &&
      e.additionalProperties === undefined &&
      e.type !== undefined &&
      e.type !== 'object' &&
      e.type !== 'array'
    )
      return;
    for (const k in value) walk(defs, element, value[k], ctx);
  }
}
