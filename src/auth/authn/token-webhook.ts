/**
 * Token webhook authentication (`--authentication-token-webhook-*`): a
 * bearer token nobody else knows is POSTed as a TokenReview to the service
 * named by a kubeconfig-format file, in `v1beta1` (the default) or `v1` of
 * the profile's authentication group (`authentication.orch.io` in the orch
 * profile, `authentication.k8s.io` upstream — the group the spec's
 * Versioning section names). The reply must be a TokenReview of the same
 * apiVersion. Decisions (authenticated, or unauthenticated without an
 * error) are cached per token and audiences for the TTL (default two
 * minutes); errors — an unreachable service, a bad reply, `status.error` —
 * are not cached, as the real server's token cache does not cache errors.
 * `status.error` and transport failures become the explanation's reason;
 * the caller only ever gets 401 Unauthorized, never a 5xx.
 */

import { yamlLibrary } from '../../machinery/decode/yaml-library';
import type { UserInfo } from '../../api/authn';
import type { NamingProfile } from '../../machinery/naming';
import type { ExternalFetch, TokenWebhookConfig } from './config';
import { readKubeconfigFile, type KubeconfigFiles } from '../../machinery/kubeconfig-files';
import { encodePEM, fromBase64 } from '../pki/pem';
import { AuthenticationRejected } from './rejection';
import type { TokenAuthentication, TokenAuthenticator } from './types';

/** Where and how to reach the webhook, from the kubeconfig-format file. */
export interface WebhookTarget {
  server: string;
  caPEM?: string;
  clientCertificatePEM?: string;
  clientKeyPEM?: string;
  token?: string;
  insecureSkipTLSVerify?: boolean;
}

/** The transport options this authenticator passes: `caPEM` plus the API server's client credentials (hosts should honour them). */
export interface WebhookFetchOptions {
  caPEM?: string;
  clientCertificatePEM?: string;
  clientKeyPEM?: string;
  insecureSkipTLSVerify?: boolean;
}

export interface TokenWebhookOptions {
  fetch: ExternalFetch;
  profile: NamingProfile;
  /** `--api-audiences` (the implicit audiences when the webhook names none). */
  apiAudiences?: readonly string[];
  now?: () => Date;
  /** Attempts for retriable failures (500, 504, 429): default 5, waits 500 ms growing ×1.5, as the real server's default backoff. */
  retry?: { steps: number; initialMs: number; factor: number };
  /** Per-call timeout; default 30 s. */
  timeoutMs?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function named(list: unknown, name: string | undefined, field: string): Obj | undefined {
  if (!Array.isArray(list)) return undefined;
  const entry = name === undefined ? list[0] : list.find((e) => isObj(e) && e['name'] === name);
  return isObj(entry) && isObj(entry[field]) ? (entry[field] as Obj) : undefined;
}

function pemFromData(data: string | undefined): string | undefined {
  if (data === undefined) return undefined;
  const text = new TextDecoder().decode(fromBase64(data));
  // `*-data` fields hold base64 of PEM; accept base64 of DER as well.
  return text.includes('-----BEGIN') ? text : encodePEM(fromBase64(data), 'CERTIFICATE');
}

/**
 * Reads the webhook's kubeconfig: the current context's cluster (`server`,
 * `certificate-authority[-data]`) and user (`client-certificate[-data]`,
 * `client-key[-data]`, `token`, `tokenFile`); without a current context, the
 * first cluster and user. Files are read through the host's reader,
 * relative to the kubeconfig's directory (see machinery/kubeconfig-files).
 */
export function parseWebhookKubeconfig(text: string, files?: KubeconfigFiles): WebhookTarget {
  // Loaded by the server before it builds the authenticators (server/identity.ts).
  const doc: unknown = yamlLibrary.get().parse(text);
  if (!isObj(doc)) throw new Error('invalid configuration: no configuration has been provided');
  const contextName = str(doc['current-context']);
  const context = contextName !== undefined ? named(doc['contexts'], contextName, 'context') : undefined;
  if (contextName !== undefined && context === undefined) {
    throw new Error(`invalid configuration: context was not found for specified context: ${contextName}`);
  }
  const clusterName = str(context?.['cluster']);
  const userName = str(context?.['user']);
  const cluster = named(doc['clusters'], clusterName, 'cluster');
  const user = named(doc['users'], userName, 'user') ?? {};
  const server = str(cluster?.['server']);
  if (cluster === undefined || server === undefined) {
    throw new Error('invalid configuration: no server found for cluster');
  }
  const clusterOwner = `cluster ${JSON.stringify(clusterName ?? entryName(doc['clusters']))}`;
  const userOwner = `user ${JSON.stringify(userName ?? entryName(doc['users']))}`;
  const fromFile = (entry: Obj, field: string, owner: string): string | undefined => {
    const ref = str(entry[field]);
    return ref === undefined ? undefined : readKubeconfigFile(files, field, ref, owner);
  };
  const target: WebhookTarget = { server };
  const ca =
    pemFromData(str(cluster['certificate-authority-data'])) ??
    fromFile(cluster, 'certificate-authority', clusterOwner);
  if (ca !== undefined) target.caPEM = ca;
  if (cluster['insecure-skip-tls-verify'] === true) target.insecureSkipTLSVerify = true;
  const cert =
    pemFromData(str(user['client-certificate-data'])) ?? fromFile(user, 'client-certificate', userOwner);
  if (cert !== undefined) target.clientCertificatePEM = cert;
  const key = str(user['client-key-data']);
  const keyPEM =
    key !== undefined ? new TextDecoder().decode(fromBase64(key)) : fromFile(user, 'client-key', userOwner);
  if (keyPEM !== undefined) target.clientKeyPEM = keyPEM;
  const token = str(user['token']) ?? fromFile(user, 'tokenFile', userOwner)?.trim();
  if (token !== undefined && token !== '') target.token = token;
  return target;
}

function entryName(list: unknown): string {
  return Array.isArray(list) && isObj(list[0]) ? String(list[0]['name'] ?? '') : '';
}

/** client-go's text for a non-2xx reply without a Status body. */
function genericServerResponse(status: number, body: string): string {
  const byCode: Record<number, string> = {
    400: 'the server rejected our request for an unknown reason',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'the server could not find the requested resource',
    409: 'the server reported a conflict',
    429: 'the server has received too many requests and has asked us to try again later',
    500: `an error on the server (${JSON.stringify(body.trim())}) has prevented the request from succeeding`,
    503: 'the server is currently unable to handle the request',
    504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
  };
  return (
    byCode[status] ??
    `the server responded with the status code ${status} but did not return more information`
  );
}

class WebhookCallError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
  ) {
    super(message);
  }
}

interface CacheEntry {
  expiresAt: number;
  result: TokenAuthentication | undefined;
}

export function tokenWebhookAuthenticator(
  config: TokenWebhookConfig,
  options: TokenWebhookOptions,
): TokenAuthenticator {
  const target = parseWebhookKubeconfig(config.kubeconfig, config.files);
  const version = config.version ?? 'v1beta1';
  const apiVersion = `${options.profile.suffixed('authentication')}/${version}`;
  const ttl = config.cacheTTLms ?? 120_000;
  const now = options.now ?? (() => new Date());
  const retry = options.retry ?? { steps: 5, initialMs: 500, factor: 1.5 };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const implicitAudiences = options.apiAudiences ?? [];
  const cache = new Map<string, CacheEntry>();
  const fetchOptions: WebhookFetchOptions = {
    ...(target.caPEM !== undefined ? { caPEM: target.caPEM } : {}),
    ...(target.clientCertificatePEM !== undefined
      ? { clientCertificatePEM: target.clientCertificatePEM }
      : {}),
    ...(target.clientKeyPEM !== undefined ? { clientKeyPEM: target.clientKeyPEM } : {}),
    ...(target.insecureSkipTLSVerify === true ? { insecureSkipTLSVerify: true } : {}),
  };

  async function callOnce(body: string): Promise<Obj> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (target.token !== undefined) headers['authorization'] = `Bearer ${target.token}`;
    let response: Response;
    try {
      const request = new Request(target.server, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      response = await options.fetch(request, fetchOptions);
    } catch (e) {
      const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
      const text = e instanceof Error ? e.message : String(e);
      throw new WebhookCallError(`Post ${JSON.stringify(target.server)}: ${text}${cause}`, false);
    }
    const text = await response.text();
    if (response.status < 200 || response.status > 299) {
      let message = genericServerResponse(response.status, text);
      try {
        const status: unknown = JSON.parse(text);
        if (isObj(status) && status['kind'] === 'Status' && typeof status['message'] === 'string')
          message = status['message'];
      } catch {
        // not a Status: the generic text stands
      }
      throw new WebhookCallError(message, [429, 500, 504].includes(response.status));
    }
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch (e) {
      throw new WebhookCallError(
        `couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`,
        false,
      );
    }
    if (!isObj(reply))
      throw new WebhookCallError("couldn't get version/kind; json parse error: not an object", false);
    const gotVersion = String(reply['apiVersion'] ?? '');
    if (reply['kind'] !== 'TokenReview' || gotVersion !== apiVersion) {
      const [group, v] = gotVersion.includes('/') ? gotVersion.split('/') : ['', gotVersion];
      const known = group === options.profile.suffixed('authentication') && (v === 'v1' || v === 'v1beta1');
      throw new WebhookCallError(
        known && reply['kind'] === 'TokenReview'
          ? `converting (${v}.TokenReview) to (${version}.TokenReview): unknown conversion`
          : `no kind ${JSON.stringify(String(reply['kind'] ?? ''))} is registered for version ${JSON.stringify(gotVersion)}`,
        false,
      );
    }
    return reply;
  }

  async function review(token: string, audiences: readonly string[] | undefined): Promise<Obj> {
    const spec: Obj = { token };
    if (audiences !== undefined && audiences.length > 0) spec['audiences'] = [...audiences];
    // Shaped as client-go serializes it: empty metadata and status kept.
    const body = JSON.stringify({
      kind: 'TokenReview',
      apiVersion,
      metadata: { creationTimestamp: null },
      spec,
      status: { user: {} },
    });
    let wait = retry.initialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await callOnce(body);
      } catch (e) {
        if (!(e instanceof WebhookCallError) || !e.retriable || attempt >= retry.steps) throw e;
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait *= retry.factor;
      }
    }
  }

  async function decide(
    token: string,
    audiences: readonly string[] | undefined,
  ): Promise<TokenAuthentication | undefined> {
    let reply: Obj;
    try {
      reply = await review(token, audiences);
    } catch (e) {
      throw new AuthenticationRejected('webhook', e instanceof Error ? e.message : String(e), 'error');
    }
    const status = isObj(reply['status']) ? reply['status'] : {};
    let granted: string[] = [];
    if (audiences !== undefined && audiences.length > 0) {
      const replied = Array.isArray(status['audiences']) ? status['audiences'].map(String) : [];
      const got = replied.length > 0 ? replied : implicitAudiences;
      granted = audiences.filter((a) => got.includes(a));
      if (granted.length === 0) return undefined;
    }
    if (status['authenticated'] !== true) {
      const error = str(status['error']);
      if (error !== undefined) throw new AuthenticationRejected('webhook', error);
      return undefined;
    }
    const u = isObj(status['user']) ? status['user'] : {};
    const user: UserInfo = {
      username: String(u['username'] ?? ''),
      groups: Array.isArray(u['groups']) ? u['groups'].map(String) : [],
    };
    if (str(u['uid']) !== undefined) user.uid = String(u['uid']);
    if (isObj(u['extra'])) {
      user.extra = Object.fromEntries(
        Object.entries(u['extra']).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : [String(v)]]),
      );
    }
    return { user, audiences: granted };
  }

  return {
    async authenticateToken(
      token: string,
      audiences?: readonly string[],
    ): Promise<TokenAuthentication | undefined> {
      const key = `${token}\u0000${(audiences ?? []).join('\u0000')}`;
      const t = now().getTime();
      const hit = cache.get(key);
      if (hit !== undefined && hit.expiresAt > t) return hit.result;
      if (hit !== undefined) cache.delete(key);
      // Errors propagate uncached; decisions are kept for the TTL.
      const result = await decide(token, audiences);
      if (ttl > 0) {
        // Drop expired decisions now and then so one-off tokens do not pile up.
        if (cache.size >= 10_000) for (const [k, e] of cache) if (e.expiresAt <= t) cache.delete(k);
        cache.set(key, { expiresAt: t + ttl, result });
      }
      return result;
    },
  };
}
