/**
 * `metadata.managedFields` in and out: entries decoded into one field set
 * per manager identity and encoded back in the real server's order (Apply
 * entries before Update entries, then oldest first, then by manager,
 * apiVersion and subresource). A manager's identity is its name, operation
 * and subresource, plus the apiVersion for updates — an applier keeps one
 * entry whatever version it applies in.
 */

import type { JsonObject, ManagedFieldsEntry } from '../api/meta';
import type { FieldSet } from './field-set';
import { FieldsV1Error, fieldsV1ToSetWork, setToFieldsV1Work } from './fields-v1';
import { runNow, type Work } from '../machinery/cooperative';
import { compareStrings, goJson } from './path';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Field sets and entry times by manager identity. */
export interface Managed {
  fields: Map<string, VersionedSet>;
  times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

export function cloneManaged(m: Managed): Managed {
  return { fields: new Map(m.fields), times: new Map(m.times) };
}

export interface ManagerIdentity {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  subresource?: string;
}

/** The identity as the real server spells it: the entry's JSON without time, fields and (for appliers) apiVersion. */
export function managerIdentifier(e: ManagerIdentity): string {
  const parts: string[] = [];
  if ((e.manager ?? '') !== '') parts.push(`"manager":${goJson(e.manager ?? '')}`);
  if ((e.operation ?? '') !== '') parts.push(`"operation":${goJson(e.operation ?? '')}`);
  if (e.operation !== 'Apply' && (e.apiVersion ?? '') !== '')
    parts.push(`"apiVersion":${goJson(e.apiVersion ?? '')}`);
  if ((e.subresource ?? '') !== '') parts.push(`"subresource":${goJson(e.subresource ?? '')}`);
  return `{${parts.join(',')}}`;
}

/** Identities parsed so far (a server sees few managers): each entry is encoded from its identity on every write. */
const parsedIdentifiers = new Map<string, Readonly<ManagerIdentity>>();
const parsedIdentifiersMax = 1024;

/** The identity spelled by `id` (read-only: shared by every caller asking for the same text). */
export function parseIdentifier(id: string): Readonly<ManagerIdentity> {
  let parsed = parsedIdentifiers.get(id);
  if (parsed === undefined) {
    parsed = Object.freeze(JSON.parse(id) as ManagerIdentity);
    if (parsedIdentifiers.size >= parsedIdentifiersMax) parsedIdentifiers.clear();
    parsedIdentifiers.set(id, parsed);
  }
  return parsed;
}

export class ManagedFieldsError extends Error {}

/** Decodes entries as the real server does; an invalid entry makes the whole list undecodable. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[]): Managed {
  return runNow(decodeManagedFieldsWork(entries));
}

/** `decodeManagedFields` as work that may pause inside a wide entry (machinery/cooperative.ts). */
export function* decodeManagedFieldsWork(entries: readonly ManagedFieldsEntry[]): Work<Managed> {
  const m = emptyManaged();
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as ManagedFieldsEntry;
    if (e.operation !== 'Apply' && e.operation !== 'Update')
      throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if ((e.apiVersion ?? '') === '') throw new ManagedFieldsError('apiVersion must not be empty');
    if ((e.fieldsType ?? '') === '')
      throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1')
      throw new ManagedFieldsError(
        `invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`,
      );
    const id = managerIdentifier(e);
    let set: FieldSet;
    try {
      set = yield* fieldsV1ToSetWork(e.fieldsV1);
    } catch (err) {
      if (err instanceof FieldsV1Error) throw new ManagedFieldsError(`error decoding set: ${err.message}`);
      throw err;
    }
    m.fields.set(id, { set, apiVersion: e.apiVersion ?? '', applied: e.operation === 'Apply' });
    m.times.set(id, e.time ?? undefined);
  }
  return m;
}

export function timeSeconds(t: string | undefined): number {
  if (t === undefined) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** The entries, sorted as the real server sorts them; undefined when nobody owns anything. */
export function encodeManagedFields(m: Managed): ManagedFieldsEntry[] | undefined {
  return runNow(encodeManagedFieldsWork(m));
}

/** `encodeManagedFields` as work that may pause inside a wide set (machinery/cooperative.ts). */
export function* encodeManagedFieldsWork(m: Managed): Work<ManagedFieldsEntry[] | undefined> {
  if (m.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of m.fields) {
    const ident = parseIdentifier(id);
    const e: ManagedFieldsEntry = {};
    if ((ident.manager ?? '') !== '') e.manager = ident.manager;
    const operation = vs.applied ? 'Apply' : ident.operation;
    if (operation !== undefined) e.operation = operation;
    if (vs.apiVersion !== '') e.apiVersion = vs.apiVersion;
    const time = m.times.get(id);
    if (time !== undefined) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = (yield* setToFieldsV1Work(vs.set)) as JsonObject;
    if ((ident.subresource ?? '') !== '') e.subresource = ident.subresource;
    entries.push(e);
  }
  return entries.sort(compareEntries);
}

function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  const byString = (a: string | undefined, b: string | undefined): number => compareStrings(a ?? '', b ?? '');
  return (
    byString(p.operation, q.operation) ||
    timeSeconds(p.time) - timeSeconds(q.time) ||
    byString(p.manager, q.manager) ||
    byString(p.apiVersion, q.apiVersion) ||
    byString(p.subresource, q.subresource)
  );
}
