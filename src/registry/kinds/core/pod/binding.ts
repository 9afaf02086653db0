/**
 * `pods/<name>/binding` (a Binding): assigns the pod to a node, once, as the
 * real binding storage does — the binding's target must be a Node (or name
 * no kind) with a name; the pod gets `spec.nodeName`, the binding's
 * annotations and a true `PodScheduled` condition; a pod already assigned,
 * being deleted or still gated answers 409 on `pods/binding`. The binding's
 * uid and resourceVersion, when given, are preconditions on the pod.
 * Nothing of the Binding is stored; 201 with a Status Success. The top-level
 * `bindings` resource (`kinds/core/binding`) binds the same way.
 */

import type { KubeObject } from '../../../../api/meta';
import { badRequest, conflict, notFound, StatusError } from '../../../../machinery/errors';
import { aggregateFieldErrors, fieldError, type FieldError } from '../../../../machinery/field-errors';
import { isPlainObject } from '../../../../machinery/json';
import type { GenericStore } from '../../../generic/store';
import type { KindOverride, NamedCreater } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import type { Strategy } from '../../../rest/strategy';
import type { ResourceType } from '../../../resource-type';
import type { StoreDeps } from '../../../generic/store';
import type { StoredKindContext } from '../../types';
import { admitCreate, createdStatus } from '../../../generic/create-admission';
import { setPodCondition } from './conditions';
import { bindingKind } from '../lazy-subresources';

interface BindingTarget {
  kind?: string;
  name?: string;
}

interface PodSpec {
  nodeName?: string;
  schedulingGates?: unknown[];
}

/** The real server's Binding validation. */
function validateBinding(binding: KubeObject): FieldError[] {
  const target = (isPlainObject(binding.target) ? binding.target : {}) as BindingTarget;
  const errors: FieldError[] = [];
  if ((target.kind ?? '') !== '' && target.kind !== 'Node')
    errors.push(fieldError.notSupported('target.kind', target.kind, ['Node', '<empty>']));
  if ((target.name ?? '') === '') errors.push(fieldError.required('target.name', ''));
  return errors;
}

/**
 * The pod store's strategy for a binding: the object written is the stored
 * pod with the binding's changes, taken as is — the real binding writes
 * storage directly, past the pod strategy's rule that only `/status`
 * changes status.
 */
function bindingStrategy(store: GenericStore): Strategy {
  return { ...store.strategy, prepareForUpdate: (obj) => obj };
}

/**
 * Binds pod `name` to the binding's target node through the pods store,
 * after the binding's own checks and admission. `rt` is the resource the
 * binding was posted to (pods or bindings), whose admission it passes.
 */
export async function bind(
  deps: StoreDeps,
  rt: ResourceType,
  pods: GenericStore,
  scope: RequestScope,
  name: string,
  object: KubeObject,
): Promise<KubeObject> {
  const admission = await admitCreate(deps, rt, scope, name, object);
  const binding = admission.object;
  if (name !== (binding.metadata?.name ?? ''))
    throw badRequest('name in URL does not match name in Binding object');
  const errors = validateBinding(binding);
  // The real storage returns these as a plain error, answered 500; bad input is a 400 here (docs/decisions/0013).
  if (errors.length > 0) throw new StatusError(400, 'BadRequest', aggregateFieldErrors(errors));
  await admission.validate();
  if (name === '') throw badRequest('Name parameter required.');

  const node = ((binding.target ?? {}) as BindingTarget).name ?? '';
  const annotations = binding.metadata?.annotations ?? {};
  const preUid = binding.metadata?.uid ?? '';
  const preVersion = binding.metadata?.resourceVersion ?? '';
  const refused = (why: string): StatusError => conflict({ group: '', resource: 'pods/binding' }, name, why);
  await pods.withStrategy(bindingStrategy(pods)).update(
    scope,
    name,
    (current) => {
      if (current === undefined) throw notFound({ group: '', resource: 'pods' }, name);
      const meta = current.metadata ?? (current.metadata = {});
      if (preUid !== '' && preUid !== meta.uid)
        throw conflict(
          { group: '', resource: 'pods' },
          name,
          `Precondition failed: UID in precondition: ${preUid}, UID in object meta: ${meta.uid ?? ''}`,
        );
      if (preVersion !== '' && preVersion !== meta.resourceVersion)
        throw conflict(
          { group: '', resource: 'pods' },
          name,
          `Precondition failed: ResourceVersion in precondition: ${preVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
        );
      const spec = (current.spec ?? (current.spec = {})) as PodSpec;
      if (meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null)
        throw refused(`pod ${name} is being deleted, cannot be assigned to a host`);
      if ((spec.nodeName ?? '') !== '')
        throw refused(`pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
      if ((spec.schedulingGates ?? []).length > 0)
        throw refused(`pod ${name} has non-empty .spec.schedulingGates`);
      spec.nodeName = node;
      const merged = { ...(meta.annotations ?? {}), ...annotations };
      if (Object.keys(merged).length > 0) meta.annotations = merged;
      setPodCondition(current, { type: 'PodScheduled', status: 'True' }, deps.now());
      return current;
    },
    {},
  );
  return createdStatus();
}

export function bindingStorage(ctx: StoredKindContext): NamedCreater & KindOverride {
  return {
    objectKind: bindingKind,
    createNamed: (scope, name, object) => bind(ctx.deps, ctx.rt, ctx.store, scope, name, object),
  };
}
