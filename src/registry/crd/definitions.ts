/**
 * The generated definitions as a server of one naming profile serves them:
 * the CRD kinds' schema facts come from upstream with `x-kubernetes-*`
 * property names on JSONSchemaProps, which are renamed to the profile's
 * (`x-orch-*` in profile orch) so that bodies written in the profile's
 * spelling decode, prune and merge. Built once per profile, and grown in
 * place when the built-in definitions' lazy part is loaded (decision 0134).
 */

import type { Definition, DefinitionSet } from '../../machinery/schema';
import { PROFILES, type NamingProfile } from '../../machinery/naming';
import { builtInDefinitions, onBuiltInDefinitionsAdded } from '../builtins';

const JSON_SCHEMA_PROPS = 'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';
const VALIDATION_RULE = 'apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule';
/** How the generated data (upstream names) spells schema extensions. */
const UPSTREAM_PREFIX = PROFILES.kubernetes.ext('');

const cache = new Map<string, { profile: NamingProfile; source: DefinitionSet; result: DefinitionSet }>();

export function profileDefinitions(profile: NamingProfile, defs: DefinitionSet): DefinitionSet {
  const cached = cache.get(profile.name);
  if (cached?.source === defs) return cached.result;
  const result = profiled(profile, defs);
  cache.set(profile.name, { profile, source: defs, result });
  return result;
}

// The built-in definitions grow when their lazy part is loaded (registry/builtins.ts): each profile's set made
// from them grows with it, in place, since the catalog, the store and the encoders hold that very object.
onBuiltInDefinitionsAdded((added) => {
  for (const { profile, source, result } of cache.values())
    if (source === builtInDefinitions) Object.assign(result, profiled(profile, added));
});

/** `defs` as the profile serves them (a copy; the definitions it does not rename are shared). */
function profiled(profile: NamingProfile, defs: DefinitionSet): DefinitionSet {
  const result: DefinitionSet = { ...defs };
  const props = defs[JSON_SCHEMA_PROPS];
  if (props?.properties !== undefined) {
    const renamed: NonNullable<Definition['properties']> = {};
    for (const [name, node] of Object.entries(props.properties))
      renamed[name.startsWith(UPSTREAM_PREFIX) ? profile.ext(name.slice(UPSTREAM_PREFIX.length)) : name] =
        node;
    result[JSON_SCHEMA_PROPS] = { ...props, properties: renamed };
  }
  const rule = defs[VALIDATION_RULE];
  if (rule?.properties !== undefined) {
    // `reason` and `fieldPath` are v1.28 fields (the v1.27 data lacks them); the product requires them on
    // validation rules, so the served schema knows them and they survive pruning and field validation.
    result[VALIDATION_RULE] = {
      ...rule,
      properties: { ...rule.properties, reason: { type: 'string' }, fieldPath: { type: 'string' } },
    };
  }
  return result;
}
