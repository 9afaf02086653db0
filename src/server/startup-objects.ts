/**
 * The objects the real server's post-start hooks put in place, written at
 * start (and after a reset or an import) through the API as the server's
 * own loopback identity: the system PriorityClasses (created when missing,
 * as `scheduling/bootstrap-system-priority-classes` does), the API Priority
 * and Fairness configuration (`controllers/apf-config.ts` keeps it
 * afterwards), and one APIService per served built-in group/version (the
 * aggregator's autoregister: synced once at start, labelled `onstart`, and
 * marked Available as a local service). A group/version the runtime config
 * turns off gets none of these, and an `onstart` APIService for it is
 * removed. A write refused by admission is logged; the server still starts.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import { ApiError } from '../client/errors';
import type { ResourceRef } from '../client/paths';
import { ensureApfConfiguration } from '../controllers/apf-config';
import { deepEqual } from '../machinery/json';
import {
  automanagedLabel,
  builtInApiServices,
  localAvailableCondition,
} from '../machinery/startup/api-services';
import type { NamingProfile } from '../machinery/naming';
import type { Catalog } from '../registry/catalog';

/** The two classes upstream creates; the descriptions are the sandbox's own wording of upstream's. */
function systemPriorityClasses(profile: NamingProfile): KubeObject[] {
  const apiVersion = `${profile.suffixed('scheduling')}/v1`;
  return [
    {
      apiVersion,
      kind: 'PriorityClass',
      metadata: { name: 'system-node-critical' },
      value: 2000001000,
      description: 'For system-critical pods that must stay on the node they run on.',
    },
    {
      apiVersion,
      kind: 'PriorityClass',
      metadata: { name: 'system-cluster-critical' },
      value: 2000000000,
      description: 'For system-critical pods that must run in the cluster but may move to another node.',
    },
  ];
}

function alreadyExists(e: unknown): boolean {
  return e instanceof ApiError && e.reason === 'AlreadyExists';
}

async function ensureSystemPriorityClasses(client: ApiClient, profile: NamingProfile): Promise<void> {
  const ref: ResourceRef = {
    group: profile.suffixed('scheduling'),
    version: 'v1',
    resource: 'priorityclasses',
  };
  await Promise.all(
    systemPriorityClasses(profile).map((pc) =>
      client.create(ref, pc).catch((e: unknown) => {
        if (!alreadyExists(e)) throw e;
      }),
    ),
  );
}

/** Every built-in group/version the catalog serves, in discovery order. */
function servedBuiltIns(catalog: Catalog): { group: string; version: string }[] {
  const out: { group: string; version: string }[] = [];
  for (const g of catalog.groups())
    for (const v of g.versions)
      if ([...v.resources.values()].some((rt) => !rt.custom)) out.push({ group: g.name, version: v.version });
  return out;
}

function isAvailableLocally(o: KubeObject): boolean {
  const conditions = (o['status'] as { conditions?: Record<string, string>[] } | undefined)?.conditions ?? [];
  return conditions.some(
    (c) => c['type'] === 'Available' && c['status'] === 'True' && c['reason'] === 'Local',
  );
}

async function ensureBuiltInApiServices(
  client: ApiClient,
  profile: NamingProfile,
  catalog: Catalog,
  now: Date,
): Promise<void> {
  const ref: ResourceRef = {
    group: profile.suffixed('apiregistration'),
    version: 'v1',
    resource: 'apiservices',
  };
  const label = automanagedLabel(profile);
  const desired = builtInApiServices(profile, servedBuiltIns(catalog));
  const existing = new Map((await client.list(ref)).items.map((o) => [o.metadata?.name ?? '', o] as const));
  const markAvailable = async (o: KubeObject): Promise<void> => {
    if (isAvailableLocally(o)) return;
    await client.update(
      { ...ref, name: o.metadata?.name ?? '', subresource: 'status' },
      { ...o, status: { conditions: [localAvailableCondition(now)] } },
    );
  };
  const syncOne = async (want: KubeObject): Promise<void> => {
    const name = want.metadata?.name ?? '';
    const have = existing.get(name);
    existing.delete(name);
    if (have === undefined) {
      await markAvailable(await client.create(ref, want));
      return;
    }
    // An APIService without the label is the user's: the autoregister leaves it alone.
    const managed = have.metadata?.labels?.[label];
    if (managed !== 'onstart' && managed !== 'true') return;
    let current = have;
    if (!deepEqual(have['spec'], want['spec']) || managed !== 'onstart')
      current = await client.update(
        { ...ref, name },
        {
          ...have,
          metadata: { ...have.metadata, labels: { ...have.metadata?.labels, [label]: 'onstart' } },
          spec: want['spec'],
        },
      );
    await markAvailable(current);
  };
  await Promise.all(
    desired.map((want) =>
      syncOne(want).catch((e: unknown) => {
        // Another server on the same store registered it first.
        if (!(e instanceof ApiError && (e.code === 409 || e.code === 404))) throw e;
      }),
    ),
  );
  // What was registered at an earlier start for a group/version no longer served.
  for (const [name, o] of existing)
    if (o.metadata?.labels?.[label] === 'onstart')
      await client
        .delete({ ...ref, name }, { preconditions: { uid: o.metadata.uid ?? '' } })
        .catch((e: unknown) => {
          if (!(e instanceof ApiError && (e.code === 409 || e.code === 404))) throw e;
        });
}

export async function ensureStartupObjects(
  client: ApiClient,
  profile: NamingProfile,
  catalog: Catalog,
  now: Date,
  /** Told when admission refused a step (its post-start check stays unfinished). */
  onRefused: () => void = () => undefined,
): Promise<void> {
  const served = (group: string, version: string) => catalog.servedVersion(group, version) !== undefined;
  const step = async (what: string, run: () => Promise<void>): Promise<void> => {
    try {
      await run();
    } catch (e) {
      // As a real post-start hook whose writes admission refuses: logged, and the server still starts.
      if (!(e instanceof ApiError && e.code === 403)) throw e;
      onRefused();
      console.warn(`${what}: ${e.message}`);
    }
  };
  // Three independent hooks, run side by side as the real post-start hooks run.
  const steps: Promise<void>[] = [];
  if (served(profile.suffixed('scheduling'), 'v1'))
    steps.push(
      step('unable to create the system priority classes', () =>
        ensureSystemPriorityClasses(client, profile),
      ),
    );
  if (served(profile.suffixed('flowcontrol.apiserver'), 'v1beta3'))
    steps.push(
      step('unable to ensure the priority and fairness configuration', () =>
        ensureApfConfiguration(client, profile, now),
      ),
    );
  if (served(profile.suffixed('apiregistration'), 'v1'))
    steps.push(
      step('unable to register the local APIServices', () =>
        ensureBuiltInApiServices(client, profile, catalog, now),
      ),
    );
  await Promise.all(steps);
}
