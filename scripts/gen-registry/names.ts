/**
 * Neutral naming for the registry generator. Upstream reference data spells
 * group names, definition names and protobuf packages with the upstream
 * suffix; the generated data keeps only the neutral base so that the naming
 * profile can complete it at load time (see `src/machinery/naming.ts`).
 */

/** The upstream group suffix; a group ending in it is stored by its base with `suffixed: true`. */
const UPSTREAM_GROUP_SUFFIX = '.k8s.io';
/** Leading segment of upstream OpenAPI definition names. */
const UPSTREAM_DEFINITION_PREFIX = 'io.k8s.';
/** Leading segment of upstream protobuf package names. */
const UPSTREAM_PROTO_PREFIX = 'k8s.io.';

export interface NeutralGroup {
  name: string;
  suffixed: boolean;
}

export function neutralGroup(upstream: string): NeutralGroup {
  if (upstream.endsWith(UPSTREAM_GROUP_SUFFIX)) {
    return { name: upstream.slice(0, -UPSTREAM_GROUP_SUFFIX.length), suffixed: true };
  }
  if (upstream.includes('.')) {
    // A dotted group outside the upstream suffix would need its own naming rule.
    throw new Error(`group ${upstream} has no neutral form`);
  }
  return { name: upstream, suffixed: false };
}

/** Key of a group/version by neutral group base, e.g. `rbac.authorization/v1`, `/v1` for core. */
export function gvKey(group: string, version: string): string {
  return `${group}/${version}`;
}

export function neutralDefinitionName(upstream: string): string {
  if (!upstream.startsWith(UPSTREAM_DEFINITION_PREFIX)) {
    throw new Error(`definition ${upstream} lacks the upstream prefix`);
  }
  return upstream.slice(UPSTREAM_DEFINITION_PREFIX.length);
}

/** Neutral definition name of an OpenAPI `$ref` (`#/components/schemas/<name>`). */
export function neutralRef(ref: string): string {
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) throw new Error(`unexpected $ref ${ref}`);
  return neutralDefinitionName(ref.slice(prefix.length));
}

export function neutralProtoName(upstream: string): string {
  if (!upstream.startsWith(UPSTREAM_PROTO_PREFIX)) {
    throw new Error(`protobuf name ${upstream} lacks the upstream prefix`);
  }
  return upstream.slice(UPSTREAM_PROTO_PREFIX.length);
}

export function upstreamProtoName(neutral: string): string {
  return UPSTREAM_PROTO_PREFIX + neutral;
}

/**
 * Neutral protobuf message name of a neutral definition name. Go import paths
 * with dashes (`apiextensions-apiserver`, `kube-aggregator`) become
 * underscores in protobuf package names.
 */
export function protoNameOfDefinition(definition: string): string {
  return definition.replace(/-/g, '_');
}

/** Protobuf package (neutral) of a neutral message name: everything before the last dot. */
export function packageOf(name: string): string {
  return name.slice(0, name.lastIndexOf('.'));
}

/**
 * Comparison key for a JSON property and a protobuf field. They are equal in
 * nearly all upstream types; the exceptions differ only by case
 * (`Webhooks`), by a `$` (`$ref`) or by dashes (`x-kubernetes-list-type`
 * versus `xKubernetesListType`).
 */
export function fieldKey(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
}
