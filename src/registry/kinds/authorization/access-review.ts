/**
 * The parts SubjectAccessReview, SelfSubjectAccessReview and
 * LocalSubjectAccessReview share: reading their spec, the real validation
 * rules and messages, turning a spec into the authorizer's attributes, and
 * writing the decision as a SubjectAccessReviewStatus. The spec is rebuilt
 * field by field in the order and with the omissions of the real encoder,
 * because the answer echoes it.
 */

import type { UserInfo } from '../../../api/authn';
import type { JsonObject } from '../../../api/meta';
import {
  noResourceFields,
  type AuthorizationAttributes,
  type AuthorizationResult,
} from '../../../auth/authorizer';
import { fieldError, type FieldError, GoValueText } from '../../../machinery/field-errors';
import { goQuote, putIfSet, record, str, stringLists, strings } from './review';

export interface ResourceAttributes {
  namespace: string;
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  name: string;
}

export interface NonResourceAttributes {
  path: string;
  verb: string;
}

/** A SubjectAccessReviewSpec (the self review's spec is the same without the subject fields). */
export interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user: string;
  groups: string[];
  extra?: Record<string, string[]>;
  uid: string;
}

/** Reads `spec` of a decoded review; a null attributes object counts as absent (a nil pointer). */
export function readSpec(object: Record<string, unknown>): AccessReviewSpec {
  const spec = record(object, 'spec');
  const ra = record(spec, 'resourceAttributes');
  const nra = record(spec, 'nonResourceAttributes');
  return {
    ...(ra !== undefined
      ? {
          resourceAttributes: {
            namespace: str(ra, 'namespace'),
            verb: str(ra, 'verb'),
            group: str(ra, 'group'),
            version: str(ra, 'version'),
            resource: str(ra, 'resource'),
            subresource: str(ra, 'subresource'),
            name: str(ra, 'name'),
          },
        }
      : {}),
    ...(nra !== undefined
      ? { nonResourceAttributes: { path: str(nra, 'path'), verb: str(nra, 'verb') } }
      : {}),
    user: str(spec, 'user'),
    groups: strings(spec, 'groups'),
    extra: stringLists(spec, 'extra'),
    uid: str(spec, 'uid'),
  };
}

function resourceAttributesJson(ra: ResourceAttributes): JsonObject {
  const out: JsonObject = {};
  for (const k of ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name'] as const)
    putIfSet(out, k, ra[k]);
  return out;
}

/** The spec as the answer echoes it; `withSubject` false for the self review, whose spec has no subject. */
export function specJson(spec: AccessReviewSpec, withSubject: boolean): JsonObject {
  const out: JsonObject = {};
  if (spec.resourceAttributes !== undefined)
    out.resourceAttributes = resourceAttributesJson(spec.resourceAttributes);
  if (spec.nonResourceAttributes !== undefined) {
    const nra: JsonObject = {};
    putIfSet(nra, 'path', spec.nonResourceAttributes.path);
    putIfSet(nra, 'verb', spec.nonResourceAttributes.verb);
    out.nonResourceAttributes = nra;
  }
  if (withSubject) {
    putIfSet(out, 'user', spec.user);
    putIfSet(out, 'groups', spec.groups);
    putIfSet(out, 'extra', spec.extra);
    putIfSet(out, 'uid', spec.uid);
  }
  return out;
}

/** The internal NonResourceAttributes struct as Go's `%#v` prints it (the bad value of two real errors). */
export function goNonResourceAttributes(nra: NonResourceAttributes): GoValueText {
  return new GoValueText(
    `authorization.NonResourceAttributes{Path:${goQuote(nra.path)}, Verb:${goQuote(nra.verb)}}`,
  );
}

/**
 * The real spec validation: exactly one kind of attributes, and — for the
 * reviews that name a subject — a user or a group. The "neither" error names
 * resourceAttributes but reports the (nil) nonResourceAttributes pointer,
 * which the real server prints as "null" in quotes.
 */
export function validateSpec(spec: AccessReviewSpec, withSubject: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined)
    errors.push(
      fieldError.invalid(
        'spec.nonResourceAttributes',
        goNonResourceAttributes(spec.nonResourceAttributes),
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  if (spec.resourceAttributes === undefined && spec.nonResourceAttributes === undefined)
    errors.push(
      fieldError.invalid(
        'spec.resourceAttributes',
        'null',
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  if (withSubject && spec.user === '' && spec.groups.length === 0)
    errors.push(
      fieldError.invalid('spec.user', spec.user, 'at least one of user or group must be specified'),
    );
  return errors;
}

/** The subject a SubjectAccessReview asks about. */
export function subjectOf(spec: AccessReviewSpec): UserInfo {
  return {
    username: spec.user,
    groups: spec.groups,
    ...(spec.uid !== '' ? { uid: spec.uid } : {}),
    ...(spec.extra !== undefined ? { extra: spec.extra } : {}),
  };
}

/**
 * The authorizer's view of a validated spec. An empty version means every
 * version (`*`), as on the real server; a non-resource review carries only
 * its path and verb.
 */
export function attributesOf(user: UserInfo, spec: AccessReviewSpec): AuthorizationAttributes {
  const ra = spec.resourceAttributes;
  if (ra !== undefined)
    return {
      user,
      verb: ra.verb,
      resourceRequest: true,
      apiGroup: ra.group,
      apiVersion: ra.version === '' ? '*' : ra.version,
      resource: ra.resource,
      subresource: ra.subresource,
      namespace: ra.namespace,
      name: ra.name,
      path: '',
    };
  return {
    user,
    verb: spec.nonResourceAttributes?.verb ?? '',
    resourceRequest: false,
    ...noResourceFields,
    path: spec.nonResourceAttributes?.path ?? '',
  };
}

/** A SubjectAccessReviewStatus: `allowed` is always written, the rest only when set. */
export function statusOf(result: AuthorizationResult): JsonObject {
  const status: JsonObject = { allowed: result.decision === 'Allow' };
  putIfSet(status, 'denied', result.decision === 'Deny');
  putIfSet(status, 'reason', result.reason);
  putIfSet(status, 'evaluationError', result.evaluationError ?? '');
  return status;
}
