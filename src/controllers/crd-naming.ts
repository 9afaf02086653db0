/**
 * CRD naming, as the real NamingConditionController decides it: each of a
 * CRD's requested names (plural, singular, short names, kind, list kind) is
 * accepted unless another CRD of the same group has accepted it — or a
 * built-in resource of that group uses it — in which case NamesAccepted is
 * False with the conflict as reason and message ("\"widgets\" is already
 * in use"); names already accepted stay. Established starts False
 * (NotAccepted, or Installing once the names are accepted) until the
 * establishing controller sets it. A change to one CRD re-examines the
 * others of its group, so a conflict clears when its cause goes away.
 */

import type { APIResource } from '../api/meta';
import { ApiError } from '../client/errors';
import { deepEqual } from '../machinery/json';
import type { CrdCondition, CrdNames, CustomResourceDefinition } from '../api/crd';
import { asCrd, findCondition } from '../machinery/crd';
import { crdRef, getCrd, sameConditions, updateStatus, withConditions } from './crd-common';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

interface UsedNames {
  resources: Set<string>;
  kinds: Set<string>;
}

/** Names built-in resources of a group use (served resources no CRD of the group accounts for). */
async function builtInNames(
  ctx: ControllerContext,
  group: string,
  crdPlurals: Set<string>,
): Promise<UsedNames> {
  const used: UsedNames = { resources: new Set(), kinds: new Set() };
  let versions: { version: string }[];
  try {
    const g = await ctx.client.send<{ versions?: { version: string }[] }>('GET', `/apis/${group}`);
    versions = g.body.versions ?? [];
  } catch (e) {
    if (e instanceof ApiError && e.code === 404) return used;
    throw e;
  }
  for (const v of versions) {
    const list = await ctx.client.send<{ resources?: APIResource[] }>('GET', `/apis/${group}/${v.version}`);
    for (const r of list.body.resources ?? []) {
      if (r.name.includes('/') || crdPlurals.has(r.name)) continue;
      used.resources.add(r.name);
      if (r.singularName !== undefined && r.singularName !== '') used.resources.add(r.singularName);
      for (const s of r.shortNames ?? []) used.resources.add(s);
      used.kinds.add(r.kind);
      used.kinds.add(`${r.kind}List`);
    }
  }
  return used;
}

function conflict(
  requested: string | undefined,
  accepted: string | undefined,
  used: Set<string>,
): string | undefined {
  const r = requested ?? '';
  if (r === (accepted ?? '') || !used.has(r)) return undefined;
  return `${JSON.stringify(r)} is already in use`;
}

/** The accepted names and the two conditions, as the real controller computes them. */
export function calculateNames(
  crd: CustomResourceDefinition,
  used: UsedNames,
): { names: CrdNames; namesAccepted: CrdCondition; established: CrdCondition } {
  const requested = crd.spec?.names ?? {};
  const accepted = crd.status?.acceptedNames ?? {};
  const names: CrdNames = { ...accepted };
  let namesAccepted: CrdCondition = { type: 'NamesAccepted', status: 'Unknown' };
  const fail = (reason: string, message: string): void => {
    namesAccepted = { type: 'NamesAccepted', status: 'False', reason, message };
  };
  const check = (
    field: 'plural' | 'singular' | 'kind' | 'listKind',
    set: Set<string>,
    reason: string,
  ): void => {
    const problem = conflict(requested[field], accepted[field], set);
    if (problem !== undefined) fail(reason, problem);
    else if (requested[field] !== undefined) names[field] = requested[field];
  };
  check('plural', used.resources, 'PluralConflict');
  check('singular', used.resources, 'SingularConflict');
  if (!deepEqual(requested.shortNames ?? [], accepted.shortNames ?? [])) {
    const mine = new Set(accepted.shortNames ?? []);
    const problems = (requested.shortNames ?? [])
      .filter((s) => !mine.has(s))
      .map((s) => conflict(s, '', used.resources))
      .filter((p): p is string => p !== undefined);
    if (problems.length > 0)
      fail('ShortNamesConflict', problems.length === 1 ? (problems[0] ?? '') : `[${problems.join(', ')}]`);
    else if (requested.shortNames !== undefined) names.shortNames = requested.shortNames;
    else delete names.shortNames;
  }
  check('kind', used.kinds, 'KindConflict');
  check('listKind', used.kinds, 'ListKindConflict');
  if (requested.categories !== undefined) names.categories = requested.categories;
  else delete names.categories;
  if (namesAccepted.status === 'Unknown')
    namesAccepted = {
      type: 'NamesAccepted',
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    };
  let established: CrdCondition = findCondition(crd, 'Established') ?? {
    type: 'Established',
    status: 'False',
    reason: 'NotAccepted',
    message: 'not all names are accepted',
  };
  if (established.status !== 'True' && namesAccepted.status === 'True')
    established = {
      type: 'Established',
      status: 'False',
      reason: 'Installing',
      message: 'the initial names have been accepted',
    };
  return { names, namesAccepted, established };
}

export function crdNamingController(ctx: ControllerContext): Controller {
  const ref = crdRef(ctx);
  const others = (group: string, except: string): string[] =>
    [...informer.cache.values()]
      .map(asCrd)
      .filter((c) => c.spec?.group === group && c.metadata?.name !== except)
      .map((c) => c.metadata?.name ?? '');

  const reconcile = async (name: string): Promise<{ requeueAfterMs?: number } | void> => {
    const crd = await getCrd(ctx, name);
    if (crd === undefined) return;
    const group = crd.spec?.group ?? '';
    const used: UsedNames = { resources: new Set(), kinds: new Set() };
    const plurals = new Set<string>();
    for (const other of [...informer.cache.values()].map(asCrd)) {
      if (other.spec?.group !== group) continue;
      const a = other.status?.acceptedNames ?? {};
      if (a.plural !== undefined && a.plural !== '') plurals.add(a.plural);
      if (other.metadata?.name === name) continue;
      for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])])
        if (n !== undefined && n !== '') used.resources.add(n);
      for (const n of [a.kind, a.listKind]) if (n !== undefined && n !== '') used.kinds.add(n);
    }
    const builtIns = await builtInNames(ctx, group, plurals);
    for (const n of builtIns.resources) used.resources.add(n);
    for (const n of builtIns.kinds) used.kinds.add(n);
    const { names, namesAccepted, established } = calculateNames(crd, used);
    if (
      deepEqual(names, crd.status?.acceptedNames ?? {}) &&
      sameConditions(crd.status?.conditions, [namesAccepted, established])
    )
      return;
    const result = await updateStatus(ctx, crd, {
      ...withConditions(ctx, crd, [namesAccepted, established]),
      acceptedNames: names,
    });
    if (result === 'retry') return { requeueAfterMs: 20 };
    for (const o of others(group, name)) queue.add(o);
  };

  const queue = new WorkQueue(reconcile);
  const enqueue = (obj: { metadata?: { name?: string } }): void => queue.add(obj.metadata?.name ?? '');
  const informer: Informer = new Informer(ctx.client, ref, {
    add: enqueue,
    update: (_old, obj) => enqueue(obj),
    delete: (obj) => {
      for (const o of others(asCrd(obj).spec?.group ?? '', obj.metadata?.name ?? '')) queue.add(o);
    },
  });
  return {
    name: 'crd-naming',
    start: () => informer.start(),
    stop: () => {
      informer.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
