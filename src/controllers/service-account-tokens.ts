/**
 * The service-account tokens controller of the controller manager, for
 * Secrets of type `orch.io/service-account-token` (upstream
 * `kubernetes.io/service-account-token`) whose `service-account.name`
 * annotation names an account: it fills in `ca.crt`, `namespace` and a
 * legacy (non-expiring) `token` and records the account's uid in the
 * `service-account.uid` annotation; deletes such a Secret when its account
 * does not exist (or is another account of that name, by uid); deletes an
 * account's token Secrets when the account is deleted; and removes a deleted
 * Secret from its account's `secrets` list. As upstream it runs with the
 * controller manager's own credentials, and — since v1.24 — creates no
 * token Secret by itself.
 */

import type { KubeObject } from '../api/meta';
import type { ResourceRef } from '../client/paths';
import { encodeBase64Text } from '../machinery/base64-text';
import { isConflict, isNotFound } from './api-errors';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

const accountsRef: ResourceRef = { group: '', version: 'v1', resource: 'serviceaccounts' };
const secretsRef: ResourceRef = { group: '', version: 'v1', resource: 'secrets' };

/** What the controller needs from the server's identity state (the signing key, the cluster CA). */
export interface TokenIssuer {
  /** The CA bundle written to `ca.crt` (the controller manager's `--root-ca-file`); may wait for its creation. */
  caPEM(): string | Promise<string>;
  /** A legacy token for the account, naming the Secret that holds it. */
  legacyToken(account: { namespace: string; name: string; uid: string }, secretName: string): Promise<string>;
}

interface AccountKey {
  namespace: string;
  name: string;
  uid: string;
}

interface SecretKey extends AccountKey {
  accountName: string;
  accountUid: string;
}

/** How many times a reference removal is tried again after a conflict (upstream's RemoveTokenBackoff steps). */
const removeReferenceAttempts = 10;

export function serviceAccountTokensController(ctx: ControllerContext, issuer: TokenIssuer): Controller {
  const tokenType = ctx.profile.prefixed('service-account-token');
  const nameAnnotation = ctx.profile.prefixed('service-account.name');
  const uidAnnotation = ctx.profile.prefixed('service-account.uid');

  const isToken = (secret: KubeObject): boolean => secret['type'] === tokenType;
  const annotationsOf = (o: KubeObject): Record<string, string> => o.metadata?.annotations ?? {};

  /** The account from the cache, or (when asked) from the server; undefined when absent or another uid. */
  const getAccount = async (
    namespace: string,
    name: string,
    uid: string,
    fetchOnMiss: boolean,
  ): Promise<KubeObject | undefined> => {
    const cached = accounts.cache.get(`${namespace}/${name}`);
    if (cached !== undefined && (uid === '' || cached.metadata?.uid === uid)) return cached;
    if (!fetchOnMiss) return undefined;
    try {
      const live = await ctx.client.get({ ...accountsRef, namespace, name });
      return uid === '' || live.metadata?.uid === uid ? live : undefined;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  };

  /** Deletes one token Secret, only the very one seen (uid precondition); gone or replaced is fine. */
  const deleteToken = async (namespace: string, name: string, uid: string): Promise<void> => {
    try {
      await ctx.client.delete(
        { ...secretsRef, namespace, name },
        { kind: 'DeleteOptions', apiVersion: 'v1', ...(uid !== '' ? { preconditions: { uid } } : {}) },
      );
    } catch (e) {
      if (isNotFound(e) || isConflict(e)) return;
      throw e;
    }
  };

  const syncAccount = async (key: string): Promise<void> => {
    await Promise.all([accounts.synced, secrets.synced]);
    const account = JSON.parse(key) as AccountKey;
    if ((await getAccount(account.namespace, account.name, account.uid, false)) !== undefined) return;
    // The account is gone: so are the tokens that name it (and its uid, when they record one).
    for (const secret of [...secrets.cache.values()]) {
      const m = secret.metadata ?? {};
      const annotations = annotationsOf(secret);
      if (!isToken(secret) || m.namespace !== account.namespace) continue;
      if (annotations[nameAnnotation] !== account.name) continue;
      const recorded = annotations[uidAnnotation] ?? '';
      if (recorded !== '' && account.uid !== '' && recorded !== account.uid) continue;
      await deleteToken(account.namespace, m.name ?? '', m.uid ?? '');
    }
  };

  /** Drops a deleted Secret from its account's `secrets` list, reading the account fresh (conflicts retried). */
  const removeReference = async (s: SecretKey): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      let account: KubeObject;
      try {
        account = await ctx.client.get({ ...accountsRef, namespace: s.namespace, name: s.accountName });
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      if (s.accountUid !== '' && account.metadata?.uid !== s.accountUid) return;
      const refs = (account['secrets'] as { name?: string }[] | undefined) ?? [];
      const kept = refs.filter((r) => r.name !== s.name);
      if (kept.length === refs.length) return;
      try {
        await ctx.client.update(
          { ...accountsRef, namespace: s.namespace, name: s.accountName },
          { ...account, secrets: kept },
        );
        return;
      } catch (e) {
        if (isNotFound(e)) return;
        if (!isConflict(e) || attempt >= removeReferenceAttempts) throw e;
      }
    }
  };

  /** Which of `ca.crt`, `namespace`, `token` a token Secret still lacks (or holds a stale CA in). */
  const missing = async (
    secret: KubeObject,
  ): Promise<{ ca: boolean; namespace: boolean; token: boolean }> => {
    const data = (secret['data'] as Record<string, string> | undefined) ?? {};
    const caPEM = await issuer.caPEM();
    const ca = encodeBase64Text(caPEM);
    return {
      ca: caPEM !== '' && data['ca.crt'] !== ca,
      namespace: (data['namespace'] ?? '') === '',
      token: (data['token'] ?? '') === '',
    };
  };

  const populate = async (account: KubeObject, cached: KubeObject): Promise<void> => {
    const needs = await missing(cached);
    if (!needs.ca && !needs.namespace && !needs.token) return;
    const m = cached.metadata ?? {};
    const ref = { ...secretsRef, namespace: m.namespace ?? '', name: m.name ?? '' };
    let live: KubeObject;
    try {
      // The cache's copy is not ours to change: the token goes into a fresh read.
      live = await ctx.client.get(ref);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    // Our view is stale: the informer brings the newer version and queues the Secret again.
    if (live.metadata?.resourceVersion !== m.resourceVersion) return;
    const now = await missing(live);
    if (!now.ca && !now.namespace && !now.token) return;
    const data = { ...((live['data'] as Record<string, string> | undefined) ?? {}) };
    if (now.ca) data['ca.crt'] = encodeBase64Text(await issuer.caPEM());
    if (now.namespace) data['namespace'] = encodeBase64Text(ref.namespace);
    if (now.token) {
      const token = await issuer.legacyToken(
        { namespace: ref.namespace, name: account.metadata?.name ?? '', uid: account.metadata?.uid ?? '' },
        ref.name,
      );
      data['token'] = encodeBase64Text(token);
    }
    const annotations = {
      ...annotationsOf(live),
      [nameAnnotation]: account.metadata?.name ?? '',
      [uidAnnotation]: account.metadata?.uid ?? '',
    };
    try {
      await ctx.client.update(ref, { ...live, metadata: { ...live.metadata, annotations }, data });
    } catch (e) {
      // Someone else changed it (an update event follows) or it is gone: nothing to populate now.
      if (isConflict(e) || isNotFound(e)) return;
      throw e;
    }
  };

  const syncSecret = async (key: string): Promise<void> => {
    await Promise.all([accounts.synced, secrets.synced]);
    const s = JSON.parse(key) as SecretKey;
    // Validation requires the name annotation on this type; without one there is no account to look at.
    if (s.accountName === '') return;
    const cached = secrets.cache.get(`${s.namespace}/${s.name}`);
    const secret =
      cached !== undefined && (s.uid === '' || cached.metadata?.uid === s.uid) ? cached : undefined;
    if (secret === undefined) {
      if ((await getAccount(s.namespace, s.accountName, s.accountUid, false)) !== undefined)
        await removeReference(s);
      return;
    }
    const account = await getAccount(s.namespace, s.accountName, s.accountUid, true);
    if (account === undefined) await deleteToken(s.namespace, s.name, s.uid);
    else await populate(account, secret);
  };

  const accountQueue = new WorkQueue(syncAccount);
  const secretQueue = new WorkQueue(syncSecret);
  const queueAccount = (sa: KubeObject): void => {
    const m = sa.metadata ?? {};
    accountQueue.add(
      JSON.stringify({
        namespace: m.namespace ?? '',
        name: m.name ?? '',
        uid: m.uid ?? '',
      } satisfies AccountKey),
    );
  };
  const queueSecret = (secret: KubeObject): void => {
    if (!isToken(secret)) return;
    const m = secret.metadata ?? {};
    const annotations = annotationsOf(secret);
    const key: SecretKey = {
      namespace: m.namespace ?? '',
      name: m.name ?? '',
      uid: m.uid ?? '',
      accountName: annotations[nameAnnotation] ?? '',
      accountUid: annotations[uidAnnotation] ?? '',
    };
    secretQueue.add(JSON.stringify(key));
  };
  const accounts = new Informer(ctx.client, accountsRef, {
    add: queueAccount,
    update: (old, sa) => {
      if (old.metadata?.resourceVersion !== sa.metadata?.resourceVersion) queueAccount(sa);
    },
    delete: queueAccount,
  });
  const secrets = new Informer(ctx.client, secretsRef, {
    add: queueSecret,
    update: (_old, secret) => queueSecret(secret),
    delete: queueSecret,
  });
  return {
    name: 'serviceaccount-token',
    start: () => {
      accounts.start();
      secrets.start();
    },
    stop: () => {
      accounts.stop();
      secrets.stop();
      accountQueue.stop();
      secretQueue.stop();
    },
    idle: async () => {
      await Promise.all([accountQueue.idle(), secretQueue.idle()]);
    },
  };
}
