/**
 * The `labelSelector` and `fieldSelector` of a list, watch or
 * deletecollection as one predicate over objects; a selector that does not
 * parse, or names a field the kind does not support, is a 400.
 */

import type { KubeObject } from '../api/meta';
import { badRequest } from '../machinery/errors';
import type { NamingProfile } from '../machinery/naming';
import { fieldAccessor, parseFieldSelector } from '../machinery/selectors/fields';
import { matchesLabels, parseLabelSelector, SelectorParseError } from '../machinery/selectors/labels';
import type { ResourceType } from '../registry/resource-type';

export interface Selection {
  /** Undefined when neither selector is given (everything matches). */
  predicate?: (obj: KubeObject) => boolean;
  /**
   * The one name a `metadata.name=` field requirement allows: a store may skip
   * other keys without reading their objects (the predicate still decides).
   */
  name?: string;
}

function groupBase(profile: NamingProfile, group: string): string {
  const suffix = `.${profile.groupSuffix}`;
  return group.endsWith(suffix) ? group.slice(0, -suffix.length) : group;
}

export function selectionFromQuery(
  profile: NamingProfile,
  rt: ResourceType,
  query: URLSearchParams,
): Selection {
  const labelText = query.get('labelSelector') ?? '';
  const fieldText = query.get('fieldSelector') ?? '';
  if (labelText.trim() === '' && fieldText.trim() === '') return {};
  try {
    const labels = parseLabelSelector(labelText);
    const requirements = parseFieldSelector(fieldText);
    const fields = requirements.map((r) => {
      const get = rt.custom
        ? fieldAccessor('', '', r.field, rt.namespaced)
        : fieldAccessor(groupBase(profile, rt.group), rt.kind, r.field, rt.namespaced);
      if (get === undefined) throw badRequest(`field label not supported: ${r.field}`);
      return { get, operator: r.operator, value: r.value };
    });
    const named = requirements.find((r) => r.field === 'metadata.name' && r.operator === '=');
    return {
      predicate: (obj) =>
        matchesLabels(labels, obj.metadata?.labels) &&
        fields.every((f) => (f.get(obj) === f.value) === (f.operator === '=')),
      ...(named !== undefined ? { name: named.value } : {}),
    };
  } catch (e) {
    if (e instanceof SelectorParseError) throw badRequest(e.message);
    throw e;
  }
}
