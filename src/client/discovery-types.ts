/**
 * Wire types of the discovery documents (`/api`, `/apis`, `/api/v1`,
 * `/apis/<g>/<v>`) as far as the client reads them, and the flattened view
 * `discovery()` returns. The meta types of `src/api` cover single resources;
 * the list envelopes live here until `src/api` grows them.
 */

import type { APIResource } from '../api/meta';

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion?: GroupVersionForDiscovery;
}

export interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion?: string;
  groups: APIGroup[];
}

export interface APIVersions {
  kind: 'APIVersions';
  versions: string[];
}

export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion?: string;
  groupVersion: string;
  resources: APIResource[];
}

/** The aggregated discovery document of `/api` or `/apis` (`apidiscovery/v2beta1`), as far as the client reads it. */
export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  items: APIGroupDiscovery[];
}

export interface APIGroupDiscovery {
  metadata?: { name?: string };
  /** In preference order. */
  versions: {
    version: string;
    resources?: {
      resource: string;
      responseKind?: { group?: string; version?: string; kind: string };
      scope: 'Namespaced' | 'Cluster';
      singularResource?: string;
      verbs: string[];
      shortNames?: string[];
      categories?: string[];
    }[];
    freshness?: 'Current' | 'Stale';
  }[];
}

/** One served group/version with its top-level resources (subresources such as `pods/log` are left out). */
export interface DiscoveredGroupVersion {
  /** Empty for the core group. */
  group: string;
  version: string;
  /** `v1` or `apps/v1`: the `apiVersion` of its objects. */
  groupVersion: string;
  preferred: boolean;
  resources: APIResource[];
}

/** A group version whose resource list could not be read. */
export interface DiscoveryFailure {
  groupVersion: string;
  error: unknown;
}

export interface Discovery {
  groupVersions: DiscoveredGroupVersion[];
  failed: DiscoveryFailure[];
}
