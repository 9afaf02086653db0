/**
 * What the server knows about one served resource: its names, scope, verbs,
 * subresources, schema and the behaviour of its kind. Routes, discovery and
 * the generic store are all derived from these.
 */

import type { GroupResource } from '../machinery/errors';
import type { KindBehavior } from './kind-behavior';
import type { SchemaNode } from '../machinery/schema';
import type { ConversionFamily } from './conversion';
import type { CustomResourceFacts } from './crd/facts';

export interface SubresourceType {
  name: string;
  kind: string;
  /** Group/version of the subresource's kind when it differs from the parent's (Scale is autoscaling/v1). */
  group?: string;
  version?: string;
  verbs: ReadonlySet<string>;
  definition?: string;
}

export interface ResourceType {
  group: string;
  version: string;
  /** Plural name used in paths. */
  resource: string;
  singularName: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  /** What the resource's storage accepts, derived from its capabilities when it is installed (see installer.ts). */
  verbs: ReadonlySet<string>;
  shortNames: readonly string[];
  categories: readonly string[];
  /** Served subresources; those without a storage are dropped when the resource is installed. */
  subresources: ReadonlyMap<string, SubresourceType>;
  /** `v1` for the core group, else `<group>/<version>`. */
  apiVersion: string;
  /** Where objects of this resource are stored: one storage identity for every version that serves it. */
  storage: GroupResource;
  /** The version objects are stored in (every served version converts to and from it). */
  storageVersion: { apiVersion: string; kind: string };
  /** How this resource's versions convert, when their fields differ. */
  conversion?: ConversionFamily;
  /** Set when the served version is deprecated: the Warning text and the release that removes it. */
  deprecation?: { warning: string; removedRelease: string };
  /** Neutral definition name of the kind's schema (built-in kinds). */
  definition?: string;
  /** The kind's schema (custom resources carry theirs inline). */
  schema?: SchemaNode;
  /** Stability of the group/version. */
  stability: 'stable' | 'beta' | 'alpha';
  behavior: KindBehavior;
  /** True for kinds served from a CustomResourceDefinition. */
  custom: boolean;
  /** Custom resources: their schema's pruning, defaulting, validation, printer columns and scale paths. */
  crd?: CustomResourceFacts;
}

export function groupResource(rt: Pick<ResourceType, 'group' | 'resource'>): GroupResource {
  return { group: rt.group, resource: rt.resource };
}

export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}
