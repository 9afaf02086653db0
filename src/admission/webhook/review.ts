/**
 * The AdmissionReview contract: the version a webhook is sent (the first
 * of its `admissionReviewVersions` the server knows), the request body,
 * and the checks the real server makes on the answer (same version, the
 * request's uid in v1, a patch only with `patchType: JSONPatch`), whose
 * failures read as the real ones after `received invalid webhook response:`.
 */

import type { JsonObject, JsonValue, KubeObject, Status } from '../../api/meta';
import type { AdmissionAttributes } from '../types';

export const SUPPORTED_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type ReviewVersion = (typeof SUPPORTED_REVIEW_VERSIONS)[number];

/** The first accepted version the server supports; undefined when there is none. */
export function negotiateVersion(accepted: readonly string[] | undefined): ReviewVersion | undefined {
  for (const v of accepted ?? [])
    if ((SUPPORTED_REVIEW_VERSIONS as readonly string[]).includes(v)) return v as ReviewVersion;
  return undefined;
}

/** What a webhook is asked about: the request, possibly converted to the version its rule names (matchPolicy Equivalent). */
export interface VersionedRequest {
  attributes: AdmissionAttributes;
  group: string;
  version: string;
  kind: string;
  resource: string;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
}

export function buildReview(
  groupSuffix: string,
  version: ReviewVersion,
  uid: string,
  v: VersionedRequest,
): JsonObject {
  const a = v.attributes;
  const requestGroup = a.requestResource?.group ?? a.group;
  const requestVersion = a.requestResource?.version ?? a.version;
  const request: JsonObject = {
    uid,
    kind: { group: v.group, version: v.version, kind: v.kind },
    resource: { group: v.group, version: v.version, resource: v.resource },
    ...(a.subresource !== '' ? { subResource: a.subresource } : {}),
    requestKind: {
      group: a.requestKind?.group ?? requestGroup,
      version: a.requestKind?.version ?? requestVersion,
      kind: a.requestKind?.kind ?? a.kind,
    },
    requestResource: {
      group: requestGroup,
      version: requestVersion,
      resource: a.requestResource?.resource ?? a.resource,
    },
    ...(a.subresource !== '' ? { requestSubResource: a.subresource } : {}),
    ...(a.name !== '' ? { name: a.name } : {}),
    ...(a.namespace !== '' ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: userInfo(a),
    object: (v.object ?? null) as JsonValue,
    oldObject: (v.oldObject ?? null) as JsonValue,
    dryRun: a.dryRun,
    options: options(groupSuffix, a),
  };
  return { apiVersion: `admission.${groupSuffix}/${version}`, kind: 'AdmissionReview', request };
}

function userInfo(a: AdmissionAttributes): JsonObject {
  const u = a.user;
  return {
    username: u.username,
    ...(u.uid !== undefined && u.uid !== '' ? { uid: u.uid } : {}),
    ...(u.groups !== undefined && u.groups.length > 0 ? { groups: [...u.groups] } : {}),
    ...(u.extra !== undefined && Object.keys(u.extra).length > 0
      ? { extra: structuredClone(u.extra) as JsonObject }
      : {}),
  };
}

function options(groupSuffix: string, a: AdmissionAttributes): JsonValue {
  if (a.operation === 'CONNECT') return null;
  const kind =
    a.operation === 'CREATE' ? 'CreateOptions' : a.operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions';
  return { ...(a.options ?? {}), kind, apiVersion: `meta.${groupSuffix}/v1` };
}

/** A verified answer, its patch type normalized to JSONPatch. */
export interface ReviewResult {
  allowed: boolean;
  status?: Partial<Status>;
  /** The decoded patch text (not base64), when there is one. */
  patch?: string;
  patchType?: string;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

export class InvalidResponseError extends Error {}

/** Checks an answer as the real server does; throws an InvalidResponseError with its wording. */
export function verifyResponse(
  groupSuffix: string,
  version: ReviewVersion,
  uid: string,
  body: unknown,
): ReviewResult {
  const expected = `admission.${groupSuffix}/${version}`;
  const o = (body ?? {}) as { apiVersion?: unknown; kind?: unknown; response?: unknown };
  if (o.apiVersion !== expected || o.kind !== 'AdmissionReview')
    throw new InvalidResponseError(
      `expected webhook response of ${expected}, Kind=AdmissionReview, got ${gvkText(o.apiVersion, o.kind)}`,
    );
  if (o.response === undefined || o.response === null || typeof o.response !== 'object')
    throw new InvalidResponseError('webhook response was absent');
  const r = o.response as {
    uid?: unknown;
    allowed?: unknown;
    status?: unknown;
    patch?: unknown;
    patchType?: unknown;
    warnings?: unknown;
    auditAnnotations?: unknown;
  };
  const patchText = typeof r.patch === 'string' && r.patch !== '' ? decodeBase64(r.patch) : undefined;
  let patchType = typeof r.patchType === 'string' ? r.patchType : undefined;
  if (version === 'v1') {
    // v1 is strict; v1beta1 answers were never checked for these, and the real server still accepts them.
    if (r.uid !== uid)
      throw new InvalidResponseError(`expected response.uid="${uid}", got "${String(r.uid ?? '')}"`);
    if (patchText !== undefined) {
      if (patchType === undefined || patchType === '')
        throw new InvalidResponseError('webhook returned response.patch but not response.patchType');
      if (patchType !== 'JSONPatch')
        throw new InvalidResponseError(`webhook returned invalid response.patchType of "${patchType}"`);
    }
  } else if (patchText !== undefined && (patchType === undefined || patchType === ''))
    patchType = 'JSONPatch';
  return {
    allowed: r.allowed === true,
    ...(r.status !== undefined && r.status !== null && typeof r.status === 'object'
      ? { status: r.status as Partial<Status> }
      : {}),
    ...(patchText !== undefined ? { patch: patchText } : {}),
    ...(patchType !== undefined ? { patchType } : {}),
    warnings: Array.isArray(r.warnings) ? r.warnings.filter((w): w is string => typeof w === 'string') : [],
    auditAnnotations:
      r.auditAnnotations !== null && typeof r.auditAnnotations === 'object'
        ? Object.fromEntries(
            Object.entries(r.auditAnnotations as Record<string, unknown>).filter(
              (e): e is [string, string] => typeof e[1] === 'string',
            ),
          )
        : {},
  };
}

function gvkText(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const k = typeof kind === 'string' ? kind : '';
  const [g, v] = av.includes('/') ? av.split('/') : ['', av];
  return `${g === '' ? '' : `${g}/`}${v ?? ''}, Kind=${k}`;
}

function decodeBase64(text: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
  } catch {
    throw new InvalidResponseError('illegal base64 data in response.patch');
  }
}
