/**
 * Strategies: what a kind does to its objects around a write. The generic
 * store calls them in this order, as the real server's generic registry
 * does (`rest.BeforeCreate`, `rest.BeforeUpdate`):
 *
 * create:
 *   1. `prepareForCreate` — server-owned fields of a new object (uid,
 *      creationTimestamp, generation 1, status reset), then the kind's own
 *      preparation (a Namespace's finalizer, a CSR's requester).
 *   2. `validate` — metadata rules, schema types and required fields, the
 *      kind's own rules; field errors make the write 422.
 *   3. `warningsOnCreate` — advisory text for the Warning header.
 *   4. `canonicalize` — the stored form (field order).
 * update:
 *   1. `prepareForUpdate` — what the request may not change (status on the
 *      main resource, everything but status on `/status`, …); generation
 *      bumps when its fields change. Returns the object to store.
 *   2. `validateUpdate`, 3. `warningsOnUpdate`, 4. `canonicalize`.
 * delete:
 *   `beginDelete` — what the kind adds when its deletion begins (a CRD's
 *   cleanup finalizer and Terminating condition).
 *
 * A kind's folder (`registry/kinds/<group>/<kind>/`) supplies `KindHooks`
 * for the steps where it differs; subresources (status, finalize,
 * approval, ephemeralcontainers) are the same store with another strategy.
 */

import type { KubeObject } from '../../api/meta';
import type { FieldError } from '../../machinery/field-errors';
import type { DefinitionSet } from '../../machinery/schema';
import type { NamingProfile } from '../../machinery/naming';
import type { RequestScope } from './scope';

export interface StrategyContext {
  now: Date;
  definitions: DefinitionSet;
  /** The profile's namespace finalizer and similar names kinds need. */
  namespaceFinalizer: string;
  /** The naming profile (CRD validation spells schema markers and annotations through it). */
  profile: NamingProfile;
  /** The request the write belongs to (absent for server-internal strategy calls). */
  scope?: RequestScope;
  /** The server's effective feature gates (absent: every gate at its v1.27 default). */
  featureGates?: Readonly<Record<string, boolean>>;
}

/**
 * What a write reserved from a server-wide pool (a Service's cluster IPs and node ports): the store commits it
 * once the object is stored (releasing what the write gave up) and reverts it when the write fails.
 */
export interface WriteTransaction {
  commit(): void;
  revert(): void;
}

/** What a kind adds to the generic steps; each is optional. */
export interface KindHooks {
  /**
   * Reserves what the object takes from server-wide pools, after its preparation and before validation
   * (`old` absent on create); a dry run checks without reserving.
   */
  beginWrite?(
    obj: KubeObject,
    old: KubeObject | undefined,
    ctx: StrategyContext,
  ): WriteTransaction | undefined;
  /** The object is gone from storage: what it held goes back to the pools. */
  afterDelete?(obj: KubeObject): void;
  prepareForCreate?(obj: KubeObject, ctx: StrategyContext): void;
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  validate?(obj: KubeObject, ctx: StrategyContext): FieldError[];
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  /**
   * Checks that need asynchronous work (WebCrypto: a certificate request's
   * signature); their errors follow the synchronous ones, so a kind with
   * such a check may do all its validation here to keep its own order.
   * `old` is absent on create.
   */
  validateAsync?(obj: KubeObject, old: KubeObject | undefined, ctx: StrategyContext): Promise<FieldError[]>;
  warningsOnCreate?(obj: KubeObject, ctx: StrategyContext): string[];
  warningsOnUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): string[];
  beginDelete?(obj: KubeObject, ctx: StrategyContext): KubeObject;
}

export interface Strategy {
  /** PUT to a missing name creates the object. */
  readonly allowCreateOnUpdate: boolean;
  beginWrite?(
    obj: KubeObject,
    old: KubeObject | undefined,
    ctx: StrategyContext,
  ): WriteTransaction | undefined;
  afterDelete?(obj: KubeObject): void;
  prepareForCreate(obj: KubeObject, ctx: StrategyContext): void;
  validate(obj: KubeObject, ctx: StrategyContext): FieldError[] | Promise<FieldError[]>;
  warningsOnCreate(obj: KubeObject, ctx: StrategyContext): string[];
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): KubeObject;
  validateUpdate(
    obj: KubeObject,
    old: KubeObject,
    ctx: StrategyContext,
  ): FieldError[] | Promise<FieldError[]>;
  warningsOnUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): string[];
  canonicalize(obj: KubeObject): KubeObject;
  beginDelete(obj: KubeObject, ctx: StrategyContext): KubeObject;
}
