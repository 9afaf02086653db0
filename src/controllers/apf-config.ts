/**
 * The API server's keeper of the API Priority and Fairness bootstrap
 * configuration (upstream's `priority-and-fairness-config-producer` post-start
 * hook): at start, and again whenever a FlowSchema or PriorityLevelConfiguration
 * changes or goes, the stored objects are brought in line with the v1.27
 * configuration by the rules of `machinery/startup/apf-bootstrap.ts`
 * (mandatory objects restored, suggested ones kept only while
 * `autoupdate-spec` allows). Upstream checks once a minute; reacting to the
 * change itself shows a learner the same end state at once.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import type { ResourceRef } from '../client/paths';
import {
  apfFlowSchemas,
  apfPriorityLevels,
  planApfEnsure,
  type ApfEnsureOp,
  type ApfConfiguration,
} from '../machinery/startup/apf-bootstrap';
import type { NamingProfile } from '../machinery/naming';
import { isAlreadyExists, isConflict, isNotFound } from './api-errors';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

type ApfResource = 'flowschemas' | 'prioritylevelconfigurations';

function refOf(profile: NamingProfile, resource: ApfResource): ResourceRef {
  return { group: profile.suffixed('flowcontrol.apiserver'), version: 'v1beta3', resource };
}

function configurationOf(profile: NamingProfile, resource: ApfResource): ApfConfiguration {
  return resource === 'flowschemas' ? apfFlowSchemas(profile) : apfPriorityLevels(profile);
}

/**
 * Applies the plan for one resource against `existing`; a write that lost a race (conflict, gone, already
 * there) is left to the next pass. Returns whether such a race happened.
 */
async function apply(
  client: ApiClient,
  profile: NamingProfile,
  resource: ApfResource,
  existing: readonly KubeObject[],
): Promise<boolean> {
  const ref = refOf(profile, resource);
  let raced = false;
  // The objects are independent of one another: written together.
  const write = async (op: ApfEnsureOp): Promise<void> => {
    try {
      if (op.op === 'create') await client.create(ref, op.object);
      else if (op.op === 'update')
        await client.update({ ...ref, name: op.object.metadata?.name ?? '' }, op.object);
      else
        await client.delete(
          { ...ref, name: op.name },
          { preconditions: { uid: op.uid, resourceVersion: op.resourceVersion } },
        );
    } catch (e) {
      if (isConflict(e) || isNotFound(e) || isAlreadyExists(e)) raced = true;
      else throw e;
    }
  };
  await Promise.all(planApfEnsure(configurationOf(profile, resource), existing, profile).map(write));
  return raced;
}

/**
 * The `Dangling` condition the real APF configuration consumer writes on each FlowSchema: whether the
 * priority level it names exists. Returns whether a write lost a race.
 */
async function markDangling(
  client: ApiClient,
  profile: NamingProfile,
  flowSchemas: readonly KubeObject[],
  levelNames: ReadonlySet<string>,
  now: Date,
): Promise<boolean> {
  const ref = refOf(profile, 'flowschemas');
  let raced = false;
  const mark = async (fs: KubeObject): Promise<void> => {
    const level =
      (fs['spec'] as { priorityLevelConfiguration?: { name?: string } } | undefined)
        ?.priorityLevelConfiguration?.name ?? '';
    const found = levelNames.has(level);
    const status = found ? 'False' : 'True';
    const conditions =
      (fs['status'] as { conditions?: Record<string, string>[] } | undefined)?.conditions ?? [];
    const current = conditions.find((c) => c['type'] === 'Dangling');
    if (current?.['status'] === status) return;
    const condition = {
      type: 'Dangling',
      status,
      lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z'),
      reason: found ? 'Found' : 'NotFound',
      message: found
        ? `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists`
        : `This FlowSchema references the PriorityLevelConfiguration object named "${level}" but there is no such object`,
    };
    try {
      await client.update(
        { ...ref, name: fs.metadata?.name ?? '', subresource: 'status' },
        { ...fs, status: { conditions: [...conditions.filter((c) => c['type'] !== 'Dangling'), condition] } },
      );
    } catch (e) {
      if (isConflict(e) || isNotFound(e)) raced = true;
      else throw e;
    }
  };
  await Promise.all(flowSchemas.map(mark));
  return raced;
}

/** One pass over both kinds, reading the stored objects afresh (the start-up hook; reset and import). */
export async function ensureApfConfiguration(
  client: ApiClient,
  profile: NamingProfile,
  now: Date,
): Promise<void> {
  // Priority levels first: the flow schemas refer to them.
  for (const resource of ['prioritylevelconfigurations', 'flowschemas'] as const)
    for (let round = 0; round < 3; round++) {
      const list = await client.list(refOf(profile, resource));
      if (!(await apply(client, profile, resource, list.items))) break;
    }
  for (let round = 0; round < 3; round++) {
    const levels = await client.list(refOf(profile, 'prioritylevelconfigurations'));
    const flowSchemas = await client.list(refOf(profile, 'flowschemas'));
    const names = new Set(levels.items.map((o) => o.metadata?.name ?? ''));
    if (!(await markDangling(client, profile, flowSchemas.items, names, now))) break;
  }
}

export function apfConfigurationController(ctx: ControllerContext): Controller {
  const reconcile = async (resource: string): Promise<void> => {
    const informer = resource === 'flowschemas' ? flowSchemas : priorityLevels;
    await Promise.all([flowSchemas.synced, priorityLevels.synced]);
    // A lost race shows up as another event, which queues this resource again.
    await apply(ctx.client, ctx.profile, resource as ApfResource, [...informer.cache.values()]);
    const levelNames = new Set([...priorityLevels.cache.values()].map((o) => o.metadata?.name ?? ''));
    await markDangling(ctx.client, ctx.profile, [...flowSchemas.cache.values()], levelNames, ctx.now());
  };
  const queue = new WorkQueue(reconcile);
  const watch = (resource: ApfResource): Informer => {
    const enqueue = () => queue.add(resource);
    return new Informer(ctx.client, refOf(ctx.profile, resource), {
      add: enqueue,
      update: enqueue,
      delete: enqueue,
    });
  };
  const flowSchemas = watch('flowschemas');
  const priorityLevels = watch('prioritylevelconfigurations');
  return {
    name: 'priority-and-fairness-config-producer',
    start: () => {
      priorityLevels.start();
      flowSchemas.start();
    },
    stop: () => {
      flowSchemas.stop();
      priorityLevels.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
