/**
 * Label selectors of webhooks and admission policies: `namespaceSelector`
 * (namespaced resources and Namespace objects; other cluster-scoped
 * resources always pass) and `objectSelector` (the new or the old object's
 * labels).
 */

import type { KubeObject } from '../../api/meta';
import { notFound } from '../../machinery/errors';
import { labelSelectorMatcher } from '../../machinery/scheduling/label-selector';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import type { LabelSelector } from '../webhook/types';

/** Whether labels satisfy a metav1.LabelSelector (empty selects everything). */
export function selectorMatches(
  selector: LabelSelector | undefined,
  labels: Record<string, string>,
): boolean {
  if (selector === undefined) return true;
  // The configuration's validation refuses bad operators; a stored one selects nothing.
  const match = labelSelectorMatcher(selector);
  return match instanceof Error ? false : match(labels);
}

export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return (
    selector === undefined ||
    (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0)
  );
}

/** The object selector passes when the new or the old object matches (an empty selector: always). */
export function objectSelectorMatches(
  selector: LabelSelector | undefined,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
): boolean {
  if (isEmptySelector(selector)) return true;
  for (const o of [object, oldObject])
    if (o !== undefined && selectorMatches(selector, o.metadata?.labels ?? {})) return true;
  return false;
}

/**
 * The namespace selector against the request's namespace: a Namespace being
 * created or updated is judged by its new labels, anything else by the
 * stored namespace (missing: NotFound, as the real server answers).
 */
export async function namespaceSelectorMatches(
  selector: LabelSelector | undefined,
  a: AdmissionAttributes,
  deps: Pick<AdmissionPluginDeps, 'namespaces'>,
): Promise<boolean> {
  const isNamespace = a.group === '' && a.resource === 'namespaces';
  // Other cluster-scoped resources are never excluded by a namespace selector.
  if (a.namespace === '' && !isNamespace) return true;
  if (isEmptySelector(selector)) return true;
  let labels: Record<string, string>;
  if (isNamespace && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE'))
    labels = a.object?.metadata?.labels ?? {};
  else {
    const name = isNamespace ? a.name : a.namespace;
    const ns = await deps.namespaces.get(name);
    if (ns === undefined) throw notFound({ group: '', resource: 'namespaces' }, name);
    labels = ns.metadata?.labels ?? {};
  }
  return selectorMatches(selector, labels);
}
