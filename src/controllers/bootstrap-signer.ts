/**
 * The bootstrap signer, as the controller manager's `bootstrapsigner` does
 * it: it keeps the discovery ConfigMap `cluster-info` in the public
 * namespace signed. For every bootstrap token that may sign (see
 * `signingToken`) it writes `jws-<word>config-<id>`, a detached JWS (HS256,
 * protected header `{"alg":"HS256","kid":"<id>"}`) of the `<word>config`
 * value; signatures of tokens that are gone, expired or no longer signing
 * are removed. It never creates `cluster-info` (the server does, at start).
 * One difference, on purpose: the HMAC key is the full token
 * `<id>.<secret>`, as the specification says, where the real signer keys by
 * the secret alone (docs/decisions/0022-bootstrap-signer-key.md).
 */

import type { KubeObject } from '../api/meta';
import { joseLibrary } from '../machinery/jose';
import type { ResourceRef } from '../client/paths';
import {
  clusterInfoConfigKey,
  clusterInfoName,
  clusterInfoSignaturePrefix,
  bootstrapTokenExpiry,
  bootstrapTokenSecretType,
  signingToken,
} from '../machinery/bootstrap-token';
import { isConflict, isNotFound } from './api-errors';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

/**
 * The detached JWS of `content` keyed by `token`: the compact serialization
 * with its payload part left empty (`<header>..<signature>`), as upstream's
 * `ComputeDetachedSignature` returns it; the header names the token id.
 */
export async function detachedSignature(content: string, tokenId: string, token: string): Promise<string> {
  const encoder = new TextEncoder();
  const { CompactSign } = await joseLibrary.load();
  const compact = await new CompactSign(encoder.encode(content))
    .setProtectedHeader({ alg: 'HS256', kid: tokenId })
    .sign(encoder.encode(token));
  const [header = '', , signature = ''] = compact.split('.');
  return `${header}..${signature}`;
}

export interface BootstrapSignerOptions {
  /** How often the next token expiry is compared with the clock; default one second. */
  tickMs?: number;
}

export function bootstrapSigner(ctx: ControllerContext, options: BootstrapSignerOptions = {}): Controller {
  const { profile } = ctx;
  const secretsRef: ResourceRef = {
    group: '',
    version: 'v1',
    resource: 'secrets',
    namespace: profile.systemNamespace,
  };
  const configMapsRef: ResourceRef = {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    namespace: profile.publicNamespace,
  };
  const configKey = clusterInfoConfigKey(profile);
  const prefix = clusterInfoSignaturePrefix(profile);
  const clusterInfoKey = `${profile.publicNamespace}/${clusterInfoName}`;

  // The earliest expiry among the signing tokens, compared with the clock every tick (so a moved clock acts).
  let nextExpiry: number | undefined;

  const reconcile = async (): Promise<void> => {
    await Promise.all([secrets.synced, configMaps.synced]);
    nextExpiry = undefined;
    const clusterInfo = configMaps.cache.get(clusterInfoKey);
    if (clusterInfo === undefined) return;
    const data = (clusterInfo['data'] ?? {}) as Record<string, string>;
    const content = data[configKey];
    if (typeof content !== 'string') return;

    const now = ctx.now().getTime();
    const tokens = new Map<string, string>();
    for (const secret of secrets.cache.values()) {
      const signing = signingToken(secret, profile, now);
      if (signing === undefined) continue;
      tokens.set(signing.id, signing.token);
      const expiry = bootstrapTokenExpiry(secret, now);
      if (!expiry.expired && expiry.ttlMs !== undefined)
        nextExpiry = Math.min(nextExpiry ?? Infinity, now + expiry.ttlMs);
    }

    const next: Record<string, string> = { ...data };
    let changed = false;
    for (const key of Object.keys(data)) {
      if (key.startsWith(prefix) && !tokens.has(key.slice(prefix.length))) {
        delete next[key];
        changed = true;
      }
    }
    for (const [id, token] of tokens) {
      const signature = await detachedSignature(content, id, token);
      if (next[`${prefix}${id}`] !== signature) {
        next[`${prefix}${id}`] = signature;
        changed = true;
      }
    }
    if (!changed) return;
    try {
      await ctx.client.update({ ...configMapsRef, name: clusterInfoName }, { ...clusterInfo, data: next });
    } catch (e) {
      // A newer cluster-info is on its way through the watch; it brings the key back.
      if (isConflict(e) || isNotFound(e)) return;
      throw e;
    }
  };

  const queue = new WorkQueue(reconcile);
  const enqueue = (): void => queue.add(clusterInfoKey);
  const onConfigMap = (obj: KubeObject): void => {
    if (obj.metadata?.name === clusterInfoName) enqueue();
  };
  // cluster-info only, by field selector as the real signer's informer: another ConfigMap there (a wide one)
  // is never sent to and parsed by this watch.
  const configMaps = new Informer(
    ctx.client,
    configMapsRef,
    { add: onConfigMap, update: (_old, obj) => onConfigMap(obj) },
    { query: { fieldSelector: `metadata.name=${clusterInfoName}` } },
  );
  // Only bootstrap token Secrets matter (the real signer's informer filters by type too).
  const tokenType = bootstrapTokenSecretType(profile);
  const onSecret = (...objs: KubeObject[]): void => {
    if (objs.some((o) => o['type'] === tokenType)) enqueue();
  };
  const secrets = new Informer(ctx.client, secretsRef, {
    add: onSecret,
    update: onSecret,
    delete: onSecret,
  });
  const check = (): void => {
    // One wake-up per expiry; the reconcile works out the next one.
    if (nextExpiry === undefined || ctx.now().getTime() < nextExpiry) return;
    nextExpiry = undefined;
    enqueue();
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    name: 'bootstrap-signer',
    start: () => {
      configMaps.start();
      secrets.start();
      timer = setInterval(check, options.tickMs ?? 1000);
    },
    stop: () => {
      if (timer !== undefined) clearInterval(timer);
      configMaps.stop();
      secrets.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
