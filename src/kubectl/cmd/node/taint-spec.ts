/**
 * Taint arguments and how they change a node's taints (kubectl's taint
 * utilities): `key=value:Effect` and `key:Effect` add, `key:Effect-` and
 * `key-` remove; the new list is the added taints followed by the old ones
 * they do not replace, minus the removed; the operation word is
 * "tainted", "untainted" or "modified" by the same rules kubectl uses.
 */

import { isLabelValue, isQualifiedName } from '../../../machinery/names';

export interface Taint {
  key: string;
  value?: string;
  effect?: string;
  timeAdded?: string;
}

const effects = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

/** Taint.ToString(). */
export function taintString(t: Taint): string {
  const value = t.value ?? '';
  const effect = t.effect ?? '';
  if (effect === '') return value === '' ? t.key : `${t.key}=${value}:`;
  return value === '' ? `${t.key}:${effect}` : `${t.key}=${value}:${effect}`;
}

function parseTaint(spec: string): Taint {
  const parts = spec.split(':');
  let key: string;
  let value = '';
  let effect = '';
  if (parts.length === 1) key = parts[0] as string;
  else if (parts.length === 2) {
    effect = parts[1] as string;
    if (!effects.has(effect)) throw new Error(`invalid taint effect: ${effect}, unsupported taint effect`);
    const kv = (parts[0] as string).split('=');
    if (kv.length > 2) throw new Error(`invalid taint spec: ${spec}`);
    key = kv[0] as string;
    if (kv.length === 2) {
      value = kv[1] as string;
      const errs = isLabelValue(value);
      if (errs.length > 0) throw new Error(`invalid taint spec: ${spec}, ${errs.join('; ')}`);
    }
  } else throw new Error(`invalid taint spec: ${spec}`);
  const errs = isQualifiedName(key);
  if (errs.length > 0) throw new Error(`invalid taint spec: ${spec}, ${errs.join('; ')}`);
  return { key, ...(value !== '' ? { value } : {}), ...(effect !== '' ? { effect } : {}) };
}

/** The taints to add and to remove; a parse error is a usage error of the command. */
export function parseTaints(specs: string[]): { add: Taint[]; remove: Taint[] } {
  const add: Taint[] = [];
  const remove: Taint[] = [];
  for (const spec of specs) {
    if (spec.endsWith('-')) {
      const t = parseTaint(spec.slice(0, -1));
      remove.push({ key: t.key, ...(t.effect !== undefined ? { effect: t.effect } : {}) });
      continue;
    }
    const t = parseTaint(spec);
    if (t.effect === undefined) throw new Error(`invalid taint spec: ${spec}`);
    if (add.some((a) => a.key === t.key && a.effect === t.effect))
      throw new Error(
        `duplicated taints with the same key and effect: {${t.key} ${t.value ?? ''} ${t.effect} <nil>}`,
      );
    add.push(t);
  }
  return { add, remove };
}

/** Splits `kubectl taint` arguments into resources and taint specs, resources first. */
export function splitTaintArgs(args: string[]): { resources: string[]; taints: string[] } {
  const resources: string[] = [];
  const taints: string[] = [];
  for (const s of args) {
    const isTaint = s.includes('=') || s.includes(':') || s.endsWith('-');
    if (isTaint) taints.push(s);
    else if (taints.length > 0) throw new Error(`all resources must be specified before taint changes: ${s}`);
    else resources.push(s);
  }
  return { resources, taints };
}

/** Taints added and removed in one command that name the same key (and effect). */
export function conflicts(add: Taint[], remove: Taint[]): string[] {
  const out: string[] = [];
  for (const a of add)
    for (const r of remove)
      if (a.key === r.key && (r.effect === undefined || a.effect === r.effect))
        out.push(`${r.key}=${r.effect ?? ''}`);
  return out;
}

const match = (a: Taint, b: Taint) => a.key === b.key && (a.effect ?? '') === (b.effect ?? '');

/** The node's new taints and the operation word, or the error kubectl reports. */
export function reorganizeTaints(
  nodeName: string,
  old: Taint[],
  add: Taint[],
  remove: Taint[],
  overwrite: boolean,
): { taints: Taint[]; operation: string } {
  if (!overwrite) {
    const existing = add.filter((t) => old.some((o) => o.key === t.key && o.effect === t.effect));
    if (existing.length > 0)
      throw new Error(
        `node ${nodeName} already has ${existing.map((t) => t.key).join(',')} taint(s) with same effect(s) and --overwrite is false`,
      );
  }
  let taints = [...add];
  for (const o of old) if (!taints.some((t) => match(t, o))) taints.push(o);
  const added = old.length !== taints.length;
  const errors: string[] = [];
  let removed = false;
  for (const r of remove) {
    const before = taints.length;
    taints = taints.filter((t) => (r.effect !== undefined ? !match(t, r) : t.key !== r.key));
    removed = taints.length !== before;
    if (!removed) errors.push(`taint "${taintString(r)}" not found`);
  }
  if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  const operation = (added && removed) || overwrite ? 'modified' : added ? 'tainted' : 'untainted';
  return { taints, operation };
}
