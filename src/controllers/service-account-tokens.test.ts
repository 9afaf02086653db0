// The tokens controller against an in-memory API (list, watch, get, create,
// update with resourceVersion checks, delete with uid preconditions) and a
// fake issuer: what it writes into a token Secret, that a changed CA is
// written again while the token stays, that a Secret whose account is gone
// (or is another account of that name) is deleted, and that a deleted
// Secret leaves its account's `secrets` list.
import { SandboxClock } from '../machinery/clock';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, Status, WatchEvent } from '../api/meta';
import type { ApiClient } from '../client/client';
import { ApiError } from '../client/errors';
import type { ResourceRef } from '../client/paths';
import { namingProfile } from '../machinery/naming';
import { serviceAccountTokensController, type TokenIssuer } from './service-account-tokens';
import type { Controller } from './types';

const profile = namingProfile('orch');

function failure(code: number, reason: Status['reason']): ApiError {
  return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason });
}

/** Just enough of the API for informers and the controller's writes. */
function memoryApi() {
  const objects = new Map<string, KubeObject>();
  const watchers = new Set<{ resource: string; push: (e: WatchEvent) => void }>();
  // Every event with its version, so a watch from a version replays what it missed (as the server does).
  const log: { rv: number; resource: string; event: WatchEvent }[] = [];
  let rv = 0;
  const key = (resource: string, namespace = '', name = '') => `${resource}/${namespace}/${name}`;
  const emit = (resource: string, type: WatchEvent['type'], object: KubeObject) => {
    log.push({ rv, resource, event: { type, object } });
    for (const w of watchers) if (w.resource === resource) w.push({ type, object });
  };
  const write = (ref: ResourceRef & { name?: string }, object: KubeObject, type: 'ADDED' | 'MODIFIED') => {
    const metadata = { ...object.metadata, resourceVersion: String(++rv) };
    if (type === 'ADDED') metadata.uid ??= `uid-${rv}`;
    const stored = { ...object, metadata };
    objects.set(key(ref.resource, metadata.namespace, metadata.name), stored);
    emit(ref.resource, type, stored);
    return stored;
  };
  const client = {
    async list(ref: ResourceRef) {
      const items = [...objects.entries()]
        .filter(([k]) => k.startsWith(`${ref.resource}/${ref.namespace ?? ''}`))
        .map(([, o]) => o);
      return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: String(rv) }, items };
    },
    async *watch(
      ref: ResourceRef,
      query: { resourceVersion?: string },
      signal?: AbortSignal,
    ): AsyncIterable<WatchEvent> {
      const from = Number(query.resourceVersion ?? '0');
      const queue = log.filter((e) => e.resource === ref.resource && e.rv > from).map((e) => e.event);
      let wake: () => void = () => undefined;
      const watcher = { resource: ref.resource, push: (e: WatchEvent) => (queue.push(e), wake()) };
      watchers.add(watcher);
      signal?.addEventListener('abort', () => wake());
      try {
        while (signal?.aborted !== true) {
          const next = queue.shift();
          if (next !== undefined) yield next;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        watchers.delete(watcher);
      }
    },
    async get(ref: ResourceRef & { name: string }) {
      const found = objects.get(key(ref.resource, ref.namespace, ref.name));
      if (found === undefined) throw failure(404, 'NotFound');
      return structuredClone(found);
    },
    async create(ref: ResourceRef, object: KubeObject) {
      if (objects.has(key(ref.resource, ref.namespace, object.metadata?.name)))
        throw failure(409, 'AlreadyExists');
      return write(
        ref,
        { ...object, metadata: { ...object.metadata, namespace: ref.namespace ?? '' } },
        'ADDED',
      );
    },
    async update(ref: ResourceRef & { name: string }, object: KubeObject) {
      const current = objects.get(key(ref.resource, ref.namespace, ref.name));
      if (current === undefined) throw failure(404, 'NotFound');
      if (object.metadata?.resourceVersion !== current.metadata?.resourceVersion)
        throw failure(409, 'Conflict');
      return write(ref, object, 'MODIFIED');
    },
    async delete(ref: ResourceRef & { name: string }, options?: KubeObject) {
      const k = key(ref.resource, ref.namespace, ref.name);
      const current = objects.get(k);
      if (current === undefined) throw failure(404, 'NotFound');
      const uid = (options?.['preconditions'] as { uid?: string } | undefined)?.uid;
      if (uid !== undefined && uid !== current.metadata?.uid) throw failure(409, 'Conflict');
      objects.delete(k);
      emit(ref.resource, 'DELETED', {
        ...current,
        metadata: { ...current.metadata, resourceVersion: String(++rv) },
      });
      return current;
    },
  };
  return { client: client as unknown as ApiClient, objects, key };
}

async function eventually(check: () => void): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      check();
      return;
    } catch (e) {
      if (i > 500) throw e;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

const decode = (v: unknown) => atob(String(v));
const accounts = { group: '', version: 'v1', resource: 'serviceaccounts', namespace: 'ns' };
const secrets = { group: '', version: 'v1', resource: 'secrets', namespace: 'ns' };
const tokenSecret = (name: string, annotations: Record<string, string>): KubeObject => ({
  metadata: { name, annotations },
  type: 'orch.io/service-account-token',
});

describe('service-account tokens controller', () => {
  let controller: Controller | undefined;
  afterEach(() => controller?.stop());

  const start = (ca: { pem: string }) => {
    const api = memoryApi();
    const issuer: TokenIssuer = {
      caPEM: () => ca.pem,
      legacyToken: async (a, secret) => `token:${a.namespace}/${a.name}/${a.uid}/${secret}`,
    };
    controller = serviceAccountTokensController(
      { client: api.client, profile, now: () => new Date(), clock: new SandboxClock() },
      issuer,
    );
    controller.start();
    const secret = () => api.objects.get(api.key('secrets', 'ns', 'robot-token'));
    return { api, secret };
  };

  it('fills ca.crt, namespace, token and the uid annotation; a new CA is written again, the token kept', async () => {
    const ca = { pem: 'CA-1' };
    const { api, secret } = start(ca);
    const account = await api.client.create<KubeObject>(accounts, { metadata: { name: 'robot' } });
    await api.client.create(secrets, tokenSecret('robot-token', { 'orch.io/service-account.name': 'robot' }));
    await eventually(() => expect(secret()?.['data']).toBeDefined());
    const data = secret()?.['data'] as Record<string, string>;
    expect(decode(data['ca.crt'])).toBe('CA-1');
    expect(decode(data['namespace'])).toBe('ns');
    expect(decode(data['token'])).toBe(`token:ns/robot/${account.metadata?.uid}/robot-token`);
    expect(secret()?.metadata?.annotations?.['orch.io/service-account.uid']).toBe(account.metadata?.uid);

    ca.pem = 'CA-2';
    // Any change to the Secret queues it; the stale CA is then replaced.
    const current = secret() ?? {};
    await api.client.update(
      { ...secrets, name: 'robot-token' },
      { ...current, metadata: { ...current.metadata, labels: { a: 'b' } } },
    );
    await eventually(() =>
      expect(decode((secret()?.['data'] as Record<string, string>)['ca.crt'])).toBe('CA-2'),
    );
    expect((secret()?.['data'] as Record<string, string>)['token']).toBe(data['token']);
  });

  it.each([
    { name: 'the account is missing', uid: undefined, create: false },
    { name: 'the uid annotation names another account', uid: 'someone-else', create: true },
  ])('deletes a token Secret when $name', async ({ uid, create }) => {
    const { api, secret } = start({ pem: 'CA' });
    if (create) await api.client.create(accounts, { metadata: { name: 'robot' } });
    await api.client.create(
      secrets,
      tokenSecret('robot-token', {
        'orch.io/service-account.name': 'robot',
        ...(uid !== undefined ? { 'orch.io/service-account.uid': uid } : {}),
      }),
    );
    await eventually(() => expect(secret()).toBeUndefined());
  });

  it("deletes an account's tokens with it, and drops a deleted token from an account's secrets", async () => {
    const { api, secret } = start({ pem: 'CA' });
    await api.client.create(accounts, {
      metadata: { name: 'keeper' },
      secrets: [{ name: 'keeper-token' }, { name: 'other' }],
    });
    await api.client.create(
      secrets,
      tokenSecret('keeper-token', { 'orch.io/service-account.name': 'keeper' }),
    );
    const keeper = () => api.objects.get(api.key('serviceaccounts', 'ns', 'keeper'));
    await eventually(() =>
      expect(api.objects.get(api.key('secrets', 'ns', 'keeper-token'))?.['data']).toBeDefined(),
    );
    await api.client.delete({ ...secrets, name: 'keeper-token' });
    await eventually(() => expect(keeper()?.['secrets']).toEqual([{ name: 'other' }]));

    await api.client.create(accounts, { metadata: { name: 'robot' } });
    await api.client.create(secrets, tokenSecret('robot-token', { 'orch.io/service-account.name': 'robot' }));
    await eventually(() => expect(secret()?.['data']).toBeDefined());
    await api.client.delete({ ...accounts, name: 'robot' });
    await eventually(() => expect(secret()).toBeUndefined());
  });
});
