/**
 * What the CRD controllers share: the CRD collection's address in the
 * active profile, and writing a CRD's status conditions through the
 * `status` subresource (conflicts mean someone else wrote first: come back
 * soon with fresh data).
 */

import type { ResourceRef } from '../client/paths';
import { ApiError } from '../client/errors';
import { rfc3339Seconds } from '../machinery/ids';
import type { CrdCondition, CrdStatus, CustomResourceDefinition } from '../api/crd';
import { crdGroup, CRD_RESOURCE, setCondition } from '../machinery/crd';
import type { ControllerContext } from './types';

export function crdRef(ctx: ControllerContext): ResourceRef {
  return { group: crdGroup(ctx.profile), version: 'v1', resource: CRD_RESOURCE };
}

/** The CRD's status with these conditions set (transition times kept when a status does not change). */
export function withConditions(
  ctx: ControllerContext,
  crd: CustomResourceDefinition,
  conditions: CrdCondition[],
): CrdStatus {
  const now = rfc3339Seconds(ctx.now());
  let list = crd.status?.conditions ?? [];
  for (const c of conditions) list = setCondition(list, c, now);
  return { ...crd.status, conditions: list };
}

/** Fetches a CRD fresh; undefined when it is gone. */
export async function getCrd(
  ctx: ControllerContext,
  name: string,
): Promise<CustomResourceDefinition | undefined> {
  try {
    return await ctx.client.get<CustomResourceDefinition>({ ...crdRef(ctx), name });
  } catch (e) {
    if (e instanceof ApiError && e.code === 404) return undefined;
    throw e;
  }
}

/** Writes the status; a conflict or a vanished CRD asks to come back later instead of failing. */
export async function updateStatus(
  ctx: ControllerContext,
  crd: CustomResourceDefinition,
  status: CrdStatus,
): Promise<CustomResourceDefinition | 'retry'> {
  try {
    return await ctx.client.update<CustomResourceDefinition>(
      { ...crdRef(ctx), name: crd.metadata?.name ?? '', subresource: 'status' },
      { ...crd, status },
    );
  } catch (e) {
    if (e instanceof ApiError && (e.code === 409 || e.code === 404)) return 'retry';
    throw e;
  }
}

export function sameConditions(a: readonly CrdCondition[] | undefined, b: readonly CrdCondition[]): boolean {
  return b.every((c) => {
    const old = a?.find((x) => x.type === c.type);
    return (
      old !== undefined && old.status === c.status && old.reason === c.reason && old.message === c.message
    );
  });
}
