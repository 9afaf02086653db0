/**
 * "Start lesson" and "Reset lesson". Start creates the lesson's namespaces
 * (labelled with the lesson) and starting objects where they are missing,
 * leaves alone what already matches, and replaces an object that differs
 * only once the learner said yes (the plan lists it first); it turns on the
 * admission plugins the lesson needs, never off. Nothing outside what the
 * lesson names is touched. Reset deletes the lesson's namespaces and the
 * cluster-scoped objects it made or lists in `cleanup`, waits until they
 * are gone (a namespace takes its contents with it), and Start runs again.
 */

import type { KubeObject } from '../api/meta';
import {
  ApiError,
  parseApiVersion,
  resourcePath,
  type ApiClient,
  type DiscoveredGroupVersion,
  type ResourceRef,
} from '../client/index';
import type { NamingProfile } from '../machinery/naming';
import type { LessonDocument, ObjectReference } from './format';

/** The label Start puts on a lesson's namespaces. */
export const LESSON_LABEL = 'sandbox.orch.io/lesson';

export interface PlannedObject {
  object: KubeObject;
  ref: ResourceRef & { name: string };
}

export interface StartPlan {
  /** Missing: created. Namespaces first. */
  create: PlannedObject[];
  /** Present and different from the lesson's: replaced only with the learner's yes. */
  replace: (PlannedObject & { resourceVersion: string })[];
  /** Admission plugins the lesson turns on (a change to the whole sandbox's settings). */
  enablePlugins: string[];
  /** Namespaces of the lesson still being deleted (after a reset): Start waits for them. */
  terminating: string[];
}

/** Whether Start must ask before it runs: it would replace objects or change the sandbox's settings. */
export function needsConfirmation(plan: StartPlan): boolean {
  return plan.replace.length > 0 || plan.enablePlugins.length > 0;
}

function namespaceObject(lesson: LessonDocument, name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [LESSON_LABEL]: lesson.id } } };
}

/** The objects Start writes, each with its path. */
async function startObjects(lesson: LessonDocument, client: ApiClient): Promise<PlannedObject[]> {
  const namespaces = lesson.start?.namespaces ?? [];
  const all = lesson.start?.objects ?? [];
  // A Namespace among the objects that is also a lesson namespace adds its labels and annotations to it.
  const isOwnNamespace = (o: KubeObject) =>
    o.apiVersion === 'v1' && o.kind === 'Namespace' && namespaces.includes(o.metadata?.name ?? '');
  const out: PlannedObject[] = namespaces.map((name) => {
    const own = namespaceObject(lesson, name);
    const extra = all.find((o) => isOwnNamespace(o) && o.metadata?.name === name)?.metadata;
    return {
      object: {
        ...own,
        metadata: {
          ...own.metadata,
          labels: { ...extra?.labels, ...own.metadata?.labels },
          ...(extra?.annotations !== undefined ? { annotations: extra.annotations } : {}),
        },
      },
      ref: { group: '', version: 'v1', resource: 'namespaces', name },
    };
  });
  const objects = all.filter((o) => !isOwnNamespace(o));
  if (objects.length === 0) return out;
  const served = (await client.discovery()).groupVersions;
  for (const object of objects) out.push({ object, ref: refOf(object, served, namespaces[0]) });
  return out;
}

function refOf(
  object: KubeObject,
  served: DiscoveredGroupVersion[],
  fallbackNamespace: string | undefined,
): ResourceRef & { name: string } {
  const apiVersion = object.apiVersion ?? '';
  const { group, version } = parseApiVersion(apiVersion);
  const resource = served
    .find((gv) => gv.group === group && gv.version === version)
    ?.resources.find((r) => r.kind === object.kind);
  if (resource === undefined) throw new Error(`the server does not serve ${object.kind} in ${apiVersion}`);
  const ref: ResourceRef & { name: string } = {
    group,
    version,
    resource: resource.name,
    name: object.metadata?.name ?? '',
  };
  if (resource.namespaced) {
    const namespace = object.metadata?.namespace ?? fallbackNamespace;
    if (namespace === undefined) throw new Error(`${object.kind} ${ref.name} needs a namespace`);
    ref.namespace = namespace;
  }
  return ref;
}

export async function planStart(lesson: LessonDocument, client: ApiClient): Promise<StartPlan> {
  const plan: StartPlan = { create: [], replace: [], enablePlugins: [], terminating: [] };
  for (const planned of await startObjects(lesson, client)) {
    const existing = await getOrUndefined(client, planned.ref);
    if (existing === undefined) plan.create.push(planned);
    else if (existing.metadata?.deletionTimestamp !== undefined) {
      if (planned.ref.resource === 'namespaces') plan.terminating.push(planned.ref.name);
      plan.create.push(planned);
    } else if (!contains(existing, planned.object))
      plan.replace.push({ ...planned, resourceVersion: existing.metadata?.resourceVersion ?? '' });
  }
  const wanted = lesson.start?.enableAdmissionPlugins ?? [];
  if (wanted.length > 0) {
    const settings = await sandboxSettings(client);
    const enabled = new Set(settings.admissionPlugins?.filter((p) => p.enabled).map((p) => p.name));
    plan.enablePlugins = wanted.filter((p) => !enabled.has(p));
  }
  return plan;
}

interface SandboxSettings {
  admission?: { enablePlugins?: string[]; disablePlugins?: string[]; configuration?: string };
  admissionPlugins?: { name: string; enabled: boolean }[];
}

async function sandboxSettings(client: ApiClient): Promise<SandboxSettings> {
  return (await client.send<SandboxSettings>('GET', '/sandbox/v1/settings')).body;
}

export async function runStart(
  lesson: LessonDocument,
  plan: StartPlan,
  client: ApiClient,
  _profile: NamingProfile,
): Promise<void> {
  for (const name of plan.terminating)
    await waitGone(client, { group: '', version: 'v1', resource: 'namespaces', name });
  if (plan.enablePlugins.length > 0) {
    const admission = (await sandboxSettings(client)).admission ?? {};
    const enable = [...new Set([...(admission.enablePlugins ?? []), ...plan.enablePlugins])];
    const disable = (admission.disablePlugins ?? []).filter((p) => !plan.enablePlugins.includes(p));
    await client.send('PUT', '/sandbox/v1/settings', {
      body: {
        admission: {
          enablePlugins: enable,
          disablePlugins: disable,
          configuration: admission.configuration ?? '',
        },
      },
    });
  }
  for (const { object, ref } of plan.create) {
    try {
      await client.create(ref, withNamespace(object, ref), { fieldManager: `lesson-${lesson.id}` });
    } catch (error) {
      // Created meanwhile (another tab started the lesson too): what is there stays.
      if (!(error instanceof ApiError && error.code === 409)) throw error;
    }
    // A new namespace's `default` ServiceAccount comes from a controller a moment later; pods need it.
    if (ref.resource === 'namespaces')
      await waitExists(client, {
        group: '',
        version: 'v1',
        resource: 'serviceaccounts',
        namespace: ref.name,
        name: 'default',
      });
  }
  for (const { object, ref, resourceVersion } of plan.replace) {
    const body = withNamespace(object, ref);
    await client.update(
      ref,
      { ...body, metadata: { ...body.metadata, resourceVersion } },
      {
        fieldManager: `lesson-${lesson.id}`,
      },
    );
  }
}

function withNamespace(object: KubeObject, ref: ResourceRef): KubeObject {
  if (ref.namespace === undefined || ref.resource === 'namespaces') return object;
  return { ...object, metadata: { ...object.metadata, namespace: ref.namespace } };
}

export async function resetLesson(lesson: LessonDocument, client: ApiClient): Promise<void> {
  const refs: (ResourceRef & { name: string })[] = [];
  const planned = await startObjects(lesson, client).catch(() => [] as PlannedObject[]);
  for (const p of planned)
    if (p.ref.resource === 'namespaces' || p.ref.namespace === undefined) refs.push(p.ref);
  for (const c of lesson.cleanup ?? []) refs.push(refOfReference(c));
  for (const ref of refs) {
    try {
      await client.delete(ref, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 404)) throw error;
    }
  }
  for (const ref of refs) await waitGone(client, ref);
}

function refOfReference(reference: ObjectReference): ResourceRef & { name: string } {
  const { group, version } = parseApiVersion(reference.apiVersion);
  const ref: ResourceRef & { name: string } = {
    group,
    version,
    resource: reference.resource,
    name: reference.name,
  };
  if (reference.namespace !== undefined && reference.namespace !== '') ref.namespace = reference.namespace;
  return ref;
}

async function getOrUndefined(
  client: ApiClient,
  ref: ResourceRef & { name: string },
): Promise<KubeObject | undefined> {
  try {
    return await client.get(ref);
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return undefined;
    throw error;
  }
}

/** How long Start and Reset wait for a deletion to finish (finalizers, a namespace's contents). */
const goneTimeoutMs = 60_000;

/** Resolves once the object is gone, following a watch on it rather than polling. */
export async function waitGone(client: ApiClient, ref: ResourceRef & { name: string }): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), goneTimeoutMs);
  try {
    for (;;) {
      const existing = await getOrUndefined(client, ref);
      if (existing === undefined) return;
      const { name: _name, ...collection } = ref;
      try {
        for await (const event of client.watch(
          collection,
          { fieldSelector: `metadata.name=${ref.name}`, resourceVersion: existing.metadata?.resourceVersion },
          abort.signal,
        ))
          if (event.type === 'DELETED') return;
      } catch (error) {
        if (abort.signal.aborted)
          throw new Error(`${resourcePath(ref)} is still being deleted after ${goneTimeoutMs / 1000} s`);
        // 410 or a closed stream: read it again.
        if (!(error instanceof ApiError)) throw error;
      }
      if (abort.signal.aborted) throw new Error(`${resourcePath(ref)} is still being deleted`);
    }
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** Resolves once the object exists, following a watch on its collection rather than polling. */
export async function waitExists(client: ApiClient, ref: ResourceRef & { name: string }): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), goneTimeoutMs);
  const { name: _name, ...collection } = ref;
  try {
    for (;;) {
      const list = await client.list(collection, { fieldSelector: `metadata.name=${ref.name}` });
      if (list.items.length > 0) return;
      try {
        for await (const event of client.watch(
          collection,
          { fieldSelector: `metadata.name=${ref.name}`, resourceVersion: list.metadata.resourceVersion },
          abort.signal,
        ))
          if (event.type === 'ADDED' || event.type === 'MODIFIED') return;
      } catch (error) {
        if (abort.signal.aborted)
          throw new Error(`${resourcePath(ref)} did not appear in ${goneTimeoutMs / 1000} s`);
        if (!(error instanceof ApiError)) throw error;
      }
      if (abort.signal.aborted) throw new Error(`${resourcePath(ref)} did not appear`);
    }
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** Whether `actual` holds every field of `wanted` (server-set fields aside). */
export function contains(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted))
    return (
      Array.isArray(actual) &&
      wanted.length === actual.length &&
      wanted.every((w, i) => contains(actual[i], w))
    );
  if (typeof wanted === 'object' && wanted !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    return Object.entries(wanted).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
  }
  return actual === wanted;
}
