/**
 * The strategies of CertificateSigningRequest (the real
 * `pkg/registry/certificates/certificates/strategy.go`). A create records
 * who asked — `spec.username`, `uid`, `groups`, `extra` come from the
 * authenticated requester, whatever the client sent — and starts with an
 * empty status, so no one submits a pre-approved request. After that the
 * request is immutable: an update of the main resource keeps the stored
 * spec and status (changes are dropped, not refused), `approval` changes
 * only the conditions, `status` only the status without touching the
 * Approved and Denied decision. Status and approval writes default the
 * conditions' timestamps.
 */

import type { KubeObject } from '../../../../api/meta';
import { policyNames } from '../../../../auth/policy/names';
import { rfc3339Seconds } from '../../../../machinery/ids';
import { deepClone } from '../../../../machinery/json';
import type { NamingProfile } from '../../../../machinery/naming';
import type { KindHooks, Strategy, StrategyContext } from '../../../rest/strategy';
import type { ResourceType } from '../../../resource-type';
import { subresourceStrategy } from '../../../generic/strategy';
import type { CsrWrite } from './validation';
import { LazyModule } from '../../../../machinery/lazy-module';
import type * as CsrValidation from './csr-validation.lazy';
import { conditionsOf, populateConditionTimestamps, preserveApprovalConditions } from './conditions';

type Spec = Record<string, unknown>;

/** The validation, loaded with the first CSR write (the kind's only checks, so its errors keep their place). */
const csrValidation = new LazyModule<typeof CsrValidation>(
  'csr-validation',
  () => import('./csr-validation.lazy'),
);

/** The signer name v1 refuses for new requests (`<domain>/legacy-unknown` of the profile). */
const legacySigner = (profile: NamingProfile): string => policyNames(profile).signers.legacyUnknown;

/** The requester's identity replaces whatever the client put in the spec. */
function recordRequester(obj: KubeObject, ctx: StrategyContext): void {
  const spec = (obj.spec ?? (obj.spec = {})) as Spec;
  for (const key of ['username', 'uid', 'groups', 'extra']) delete spec[key];
  const user = ctx.scope?.user;
  if (user === undefined) return;
  if (user.username !== '') spec.username = user.username;
  if (user.uid !== undefined && user.uid !== '') spec.uid = user.uid;
  if (user.groups.length > 0) spec.groups = [...user.groups];
  if (user.extra !== undefined && Object.keys(user.extra).length > 0) spec.extra = deepClone(user.extra);
}

/** The kind's hooks for one kind of write (validation differs by what the write may change). */
export function csrHooks(write: CsrWrite): KindHooks {
  return {
    prepareForCreate(obj, ctx) {
      recordRequester(obj, ctx);
      obj.status = {};
    },
    prepareForUpdate(obj, old) {
      // The generic step already kept the stored status.
      if (old.spec === undefined) delete obj.spec;
      else obj.spec = deepClone(old.spec);
    },
    validateAsync: async (obj, old, ctx) =>
      (await csrValidation.load()).validateCertificateSigningRequest(
        obj,
        old,
        old === undefined ? 'create' : write,
        legacySigner(ctx.profile),
      ),
  };
}

/** A subresource strategy whose prepared object also gets the conditions' timestamps. */
function withTimestamps(strategy: Strategy): Strategy {
  return {
    ...strategy,
    prepareForUpdate(obj, old, ctx) {
      const next = strategy.prepareForUpdate(obj, old, ctx);
      populateConditionTimestamps(next, old, rfc3339Seconds(ctx.now));
      return next;
    },
  };
}

/** `approval`: the conditions of the request replace the stored ones; nothing else changes. */
export function approvalStrategy(rt: ResourceType): Strategy {
  return withTimestamps(
    subresourceStrategy(rt, csrHooks('approval'), (next, requested) => {
      const status = { ...((next.status as Spec | undefined) ?? {}) };
      const conditions = (requested.status as Spec | undefined)?.conditions;
      if (conditions === undefined || conditions === null) delete status.conditions;
      else status.conditions = deepClone(conditions);
      next.status = status;
    }),
  );
}

/** `status`: the requested status, with the stored Approved and Denied conditions kept where they still line up. */
export function csrStatusStrategy(rt: ResourceType): Strategy {
  return withTimestamps(
    subresourceStrategy(rt, csrHooks('status'), (next, requested, old) => {
      if (requested.status === undefined || requested.status === null) delete next.status;
      else next.status = deepClone(requested.status);
      if (conditionsOf(next).length > 0) preserveApprovalConditions(next, old);
    }),
  );
}
