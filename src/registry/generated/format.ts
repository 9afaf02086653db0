/**
 * The format of the generated registry data (`resources.json`), written by
 * `scripts/gen-registry.ts` from the upstream OpenAPI and protobuf reference
 * data. Group names are neutral: a group that carries the product suffix is
 * stored by its base (`rbac.authorization`) with `suffixed: true`, and the
 * naming profile completes it at load time.
 */

export interface GeneratedSubresource {
  /** e.g. `status`, `scale`, `eviction`, `log`, `token`, `approval`, `binding`, `proxy`, `exec`. */
  name: string;
  kind: string;
  /** Set when the subresource's kind lives in another group/version (e.g. Scale in autoscaling/v1). */
  group?: string;
  groupSuffixed?: boolean;
  version?: string;
  verbs: string[];
  /** Definition name of the subresource's body, when it has one. */
  definition?: string;
}

export interface GeneratedResource {
  /** Plural resource name used in paths, e.g. `deployments`. */
  name: string;
  singularName: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  /** Definition name of the kind's schema, e.g. `api.apps.v1.Deployment`. */
  definition: string;
  subresources: GeneratedSubresource[];
}

export interface GeneratedVersion {
  version: string;
  stability: 'stable' | 'beta' | 'alpha';
  /** True when v1.27 serves this group/version without `--runtime-config`. */
  enabledByDefault: boolean;
  resources: GeneratedResource[];
}

export interface GeneratedGroup {
  /** Base name; empty for the core group. */
  name: string;
  /** True when the full name is `<name>.<suffix>` of the active profile. */
  suffixed: boolean;
  /** Versions in order of preference (the preferred version first). */
  versions: GeneratedVersion[];
}

export interface GeneratedRegistry {
  /** Release the data describes, e.g. `v1.27`. */
  release: string;
  groups: GeneratedGroup[];
}
