/**
 * What every review kind (TokenReview, SelfSubjectReview and the access
 * reviews) shares: reading the decoded body defensively, the answer's
 * envelope (the served version's kind and apiVersion, the metadata as sent
 * with the null creationTimestamp the real encoder writes), the real
 * server's 422 for these kinds — whose internal object has lost its kind by
 * the time it is validated, so the message reads `.authorization.k8s.io ""
 * is invalid` — and the Go `%#v` rendering the real validation uses for the
 * structs it reports as bad values.
 */

import type { JsonObject, KubeObject, ObjectMeta, StatusCause } from '../../../api/meta';
import { StatusError } from '../../../machinery/errors';
import { aggregateFieldErrors, type FieldError, fieldErrorBody } from '../../../machinery/field-errors';
import type { ResourceType } from '../../resource-type';
import { metaOrder } from '../../canonical';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field of a decoded object as a record; absent, null or another type count as absent. */
export function record(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const v = value[key];
  return isRecord(v) ? v : undefined;
}

export function str(value: Record<string, unknown> | undefined, key: string): string {
  const v = value?.[key];
  return typeof v === 'string' ? v : '';
}

export function strings(value: Record<string, unknown> | undefined, key: string): string[] {
  const v = value?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** A `map[string][]string` (user extra); `undefined` when absent, so an empty map stays distinguishable. */
export function stringLists(
  value: Record<string, unknown> | undefined,
  key: string,
): Record<string, string[]> | undefined {
  const v = value?.[key];
  if (!isRecord(v)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [k, list] of Object.entries(v))
    out[k] = Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  return out;
}

/**
 * Sets `key` only when the Go encoder would write it: its fields are
 * `omitempty`, so empty strings, lists and maps leave no trace.
 */
export function putIfSet(target: JsonObject, key: string, value: unknown): void {
  if (value === undefined || value === '' || value === false) return;
  if (Array.isArray(value) && value.length === 0) return;
  if (isRecord(value) && Object.keys(value).length === 0) return;
  target[key] = value as JsonObject[string];
}

/**
 * The metadata of an answer that echoes its request: as sent, in ObjectMeta's
 * order, with `creationTimestamp: null` when unset — Go's zero time is not
 * omitted, so every real review answer carries it.
 */
export function echoedMetadata(metadata: ObjectMeta | undefined): ObjectMeta {
  const src: Record<string, unknown> = isRecord(metadata) ? metadata : {};
  const out: Record<string, unknown> = {};
  for (const k of metaOrder) {
    const v = k === 'creationTimestamp' ? (src[k] ?? null) : src[k];
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (isRecord(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out as ObjectMeta;
}

/** The answer's envelope: the served version's kind and apiVersion, then the given fields in order. */
export function reviewObject(rt: ResourceType, metadata: ObjectMeta, fields: JsonObject): KubeObject {
  return { kind: rt.kind, apiVersion: rt.apiVersion, metadata, ...fields };
}

/**
 * 422 Invalid as the review storages raise it: the kind is empty (the
 * decoded object's TypeMeta is not carried into the internal version), so
 * the qualified kind is just `.<group>` and the details name no kind.
 */
export function invalidReview(rt: ResourceType, errors: FieldError[]): StatusError {
  const causes: StatusCause[] = errors.map((e) => ({
    reason: e.type,
    message: fieldErrorBody(e),
    field: e.field,
  }));
  const message = `.${rt.group} "" is invalid: ${aggregateFieldErrors(errors)}`;
  return new StatusError(422, 'Invalid', message, { group: rt.group, causes });
}

/** Go's `%q` of a string (close enough: JSON escapes and Go's agree on everything printable). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * `time.Time`'s GoString. A decoded timestamp is held in local time (the
 * real server runs in UTC, so the digits are UTC's), the zero time in UTC.
 */
function goTime(value: unknown): string {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  const d = new Date(ms);
  const nanos = d.getUTCMilliseconds() * 1_000_000;
  return `time.Date(${d.getUTCFullYear()}, time.${months[d.getUTCMonth()] ?? 'January'}, ${d.getUTCDate()}, ${d.getUTCHours()}, ${d.getUTCMinutes()}, ${d.getUTCSeconds()}, ${nanos}, time.Local)`;
}

/** A nested non-nil pointer prints as its address, which no copy can know: a fixed one stands in. */
const someAddress = '0xc000000000';

function goPointer(type: string, value: unknown): string {
  return value === undefined || value === null ? `(*${type})(nil)` : `(*${type})(${someAddress})`;
}

function goStringMap(value: unknown): string {
  if (!isRecord(value)) return 'map[string]string(nil)';
  const entries = Object.keys(value)
    .sort()
    .map((k) => `${goQuote(k)}:${goQuote(typeof value[k] === 'string' ? value[k] : '')}`);
  return `map[string]string{${entries.join(', ')}}`;
}

function goStringSlice(value: unknown): string {
  if (!Array.isArray(value)) return '[]string(nil)';
  return `[]string{${value.map((v) => goQuote(typeof v === 'string' ? v : '')).join(', ')}}`;
}

function goStructSlice(type: string, value: unknown, item: (v: Record<string, unknown>) => string): string {
  if (!Array.isArray(value)) return `[]${type}(nil)`;
  return `[]${type}{${value.map((v) => `${type}{${item(isRecord(v) ? v : {})}}`).join(', ')}}`;
}

function ownerReference(o: Record<string, unknown>): string {
  return [
    `APIVersion:${goQuote(str(o, 'apiVersion'))}`,
    `Kind:${goQuote(str(o, 'kind'))}`,
    `Name:${goQuote(str(o, 'name'))}`,
    `UID:${goQuote(str(o, 'uid'))}`,
    `Controller:${goPointer('bool', o.controller)}`,
    `BlockOwnerDeletion:${goPointer('bool', o.blockOwnerDeletion)}`,
  ].join(', ');
}

function managedFieldsEntry(e: Record<string, unknown>): string {
  return [
    `Manager:${goQuote(str(e, 'manager'))}`,
    `Operation:${goQuote(str(e, 'operation'))}`,
    `APIVersion:${goQuote(str(e, 'apiVersion'))}`,
    `Time:${e.time === undefined || e.time === null ? '<nil>' : goTime(e.time)}`,
    `FieldsType:${goQuote(str(e, 'fieldsType'))}`,
    `FieldsV1:${goPointer('v1.FieldsV1', e.fieldsV1)}`,
    `Subresource:${goQuote(str(e, 'subresource'))}`,
  ].join(', ');
}

/** ObjectMeta as Go's `%#v` prints it: the bad value of the real "metadata: must be empty" errors. */
export function goObjectMeta(metadata: ObjectMeta | undefined): string {
  const m: Record<string, unknown> = isRecord(metadata) ? metadata : {};
  const generation = typeof m.generation === 'number' ? m.generation : 0;
  const fields = [
    `Name:${goQuote(str(m, 'name'))}`,
    `GenerateName:${goQuote(str(m, 'generateName'))}`,
    `Namespace:${goQuote(str(m, 'namespace'))}`,
    `SelfLink:${goQuote(str(m, 'selfLink'))}`,
    `UID:${goQuote(str(m, 'uid'))}`,
    `ResourceVersion:${goQuote(str(m, 'resourceVersion'))}`,
    `Generation:${generation}`,
    `CreationTimestamp:${goTime(m.creationTimestamp)}`,
    `DeletionTimestamp:${m.deletionTimestamp === undefined || m.deletionTimestamp === null ? '<nil>' : goTime(m.deletionTimestamp)}`,
    `DeletionGracePeriodSeconds:${goPointer('int64', m.deletionGracePeriodSeconds)}`,
    `Labels:${goStringMap(m.labels)}`,
    `Annotations:${goStringMap(m.annotations)}`,
    `OwnerReferences:${goStructSlice('v1.OwnerReference', m.ownerReferences, ownerReference)}`,
    `Finalizers:${goStringSlice(m.finalizers)}`,
    `ManagedFields:${goStructSlice('v1.ManagedFieldsEntry', m.managedFields, managedFieldsEntry)}`,
  ];
  return `v1.ObjectMeta{${fields.join(', ')}}`;
}

/**
 * True when the metadata holds nothing but what the server itself put there
 * (managedFields, and the namespace when `allowNamespace`): the real check
 * compares the whole ObjectMeta with the zero value after clearing those.
 */
export function metadataIsEmpty(metadata: ObjectMeta | undefined, allowNamespace: boolean): boolean {
  if (!isRecord(metadata)) return true;
  for (const [k, v] of Object.entries(metadata)) {
    if (k === 'managedFields' || (allowNamespace && k === 'namespace')) continue;
    if (v === undefined || v === null || v === '' || v === 0) continue;
    // The real comparison counts an empty list or map as equal to an absent one.
    if (Array.isArray(v) && v.length === 0) continue;
    if (isRecord(v) && Object.keys(v).length === 0) continue;
    return false;
  }
  return true;
}
