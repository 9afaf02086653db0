/**
 * Who the UI acts as. Every request the UI sends carries the current
 * identity's credential — a bearer token (a built-in user, the service
 * account, an OIDC id_token minted by the sandbox's issuer), or a client
 * certificate whose key signs each request (the browser host has no TLS, see
 * src/client/proof-of-possession.ts), or nothing at all (anonymous) — and,
 * when set, impersonation headers. By default that is the sandbox's built-in
 * `admin`, read from `GET /sandbox/v1/identities` on first use. The choice
 * is kept per browser tab (sessionStorage), so two tabs can act as two users
 * side by side, as are the identities made in the tab (a certificate issued
 * from a CSR, a service account's token), which the switcher offers too. A
 * request sent without the UI (a raw `fetch` from devtools) carries nothing
 * and is anonymous.
 */

import { explanationFromHeaders } from '../../client/index';
import { credentialFromPEM, signRequest, type ClientCredential } from '../../client/proof-of-possession';

/** A built-in identity as the sandbox API lists it. */
export interface SandboxIdentity {
  name: string;
  username: string;
  groups: string[];
  token?: string;
  clientCertificatePEM?: string;
  clientKeyPEM?: string;
  /** Listed before its certificate was issued (`?certificates=deferred`): the full list carries it. */
  clientCertificate?: 'deferred';
  /** The service account listed before its signing key was made (`?certificates=deferred`): the full list carries its token. */
  serviceAccountToken?: 'deferred';
}

/** Whom the acting identity impersonates (the `Impersonate-*` headers). */
export interface Impersonation {
  user: string;
  groups: string[];
  uid?: string;
}

/** What the UI acts as: an identity's credential, and optionally whom it impersonates. */
export interface ActingAs {
  /** The identity's name (`admin`, `alice`, …) or a label such as `oidc:bob` or `anonymous`. */
  name: string;
  /** How the credential is presented; absent means a bearer token when `token` is set, else anonymous. */
  method?: 'token' | 'certificate' | 'oidc' | 'anonymous';
  /** Bearer token; absent for anonymous and certificate identities. */
  token?: string;
  /** PEM certificate chain (leaf first) and PKCS#8 key of a certificate identity. */
  certificate?: { certificatePEM: string; keyPEM: string };
  /** Who the UI expects the server to see (from the identities list, or the OIDC claims), for "Who am I". */
  expected?: { username: string; groups: string[] };
  impersonate?: Impersonation;
}

/** What the server itself said about the requester, read from a 403's explanation. */
export interface ServerSeenUser {
  /** The acting identity's name when it was seen, so a stale sighting is not shown for another identity. */
  acting: string;
  username: string;
  groups: string[];
  /** The request whose answer said so (`GET /api/v1/...`). */
  request: string;
}

export const identitiesPath = '/sandbox/v1/identities';
/** The list without waiting for client certificates: the admin's token is all a first screen needs. */
export const deferredIdentitiesPath = `${identitiesPath}?certificates=deferred`;
export const oidcTokenPath = '/sandbox/v1/oidc/token';

/**
 * The built-in identity the UI acts as by default, and the sessionStorage key of the tab's choice. A reload
 * asks for the admin from index.html's inline script before any module loads (by the default identity only,
 * so it reads the key too): it repeats both, and index-html.test.ts checks they agree.
 */
export const adminIdentityName = 'admin';
export const identityKey = 'orch-sandbox.identity';
/** Identities made in this tab (a certificate issued from a CSR, a service account's token). */
const savedKey = 'orch-sandbox.identities.saved';

type Listener = (acting: ActingAs | undefined) => void;

export class IdentityStore {
  private acting: ActingAs | undefined;
  private loading: Promise<ActingAs | undefined> | undefined;
  private readonly listeners = new Set<Listener>();
  private seen: ServerSeenUser | undefined;
  /** Bumped on every change and on `refresh`, so the UI can rebuild what it fetched as the old identity. */
  private generation = 0;

  constructor(
    /** Reads the built-in identities; `certificates: false` may leave certificates not issued yet out. */
    private readonly load: (options?: { certificates?: boolean }) => Promise<SandboxIdentity[]>,
    private readonly storage: Storage | undefined = sessionStorageOrUndefined(),
  ) {
    this.acting = readStored(this.storage);
    this.chosen = this.acting !== undefined;
    this.savedList = readSaved(this.storage);
  }

  /** Whether the tab chose whom to act as (kept in sessionStorage); otherwise it is the built-in admin. */
  private chosen: boolean;

  private savedList: ActingAs[];

  /** The identities made in this tab, which the switcher offers beside the built-in ones. */
  saved(): readonly ActingAs[] {
    return this.savedList;
  }

  /** Keeps `acting` among the saved identities (replacing one of the same name) and acts as it. */
  adopt(acting: ActingAs): void {
    this.savedList = [...this.savedList.filter((a) => a.name !== acting.name), acting];
    try {
      this.storage?.setItem(savedKey, JSON.stringify(this.savedList));
    } catch {
      // Storage disabled: the identity lasts for this page.
    }
    this.set(acting);
  }

  current(): ActingAs | undefined {
    return this.acting;
  }

  /**
   * The built-in admin's token when the tab acts as the admin by default (chose no identity), for the next
   * load of this tab to send its first reads with before the identities list answers (first-screen.ts).
   */
  defaultAdminToken(): string | undefined {
    return !this.chosen && this.acting?.name === adminIdentityName ? this.acting.token : undefined;
  }

  /** Changes on every `set` and `refresh`. */
  version(): number {
    return this.generation;
  }

  /** The built-in identities (loaded once per call; the list is small and changes only with a reset). */
  identities(): Promise<SandboxIdentity[]> {
    return this.load();
  }

  /** The identity to act as now: the chosen one, else the built-in admin (loaded once). */
  async resolve(): Promise<ActingAs | undefined> {
    if (this.acting !== undefined) return this.acting;
    // The admin's token is all this needs: the list answers without waiting for a client certificate.
    this.loading ??= this.load({ certificates: false })
      .then((all) => {
        const admin = all.find((i) => i.name === adminIdentityName);
        if (this.acting === undefined && admin?.token !== undefined) {
          this.acting = {
            name: admin.name,
            method: 'token',
            token: admin.token,
            expected: { username: admin.username, groups: admin.groups },
          };
          // The requests waiting for this answer (the first screen's reads) go first; the header's
          // switcher is told in the next task, rather than rendering before they are sent (0088).
          setTimeout(() => this.emit(), 0);
        }
        return this.acting;
      })
      .catch(() => {
        this.loading = undefined;
        return undefined;
      });
    return this.loading;
  }

  /**
   * Acts as `acting` from now on. `persist` keeps it for this tab and tells the UI to fetch again; the
   * implicit default (admin, on first use) does neither, since nothing was fetched as anyone else.
   */
  set(acting: ActingAs, persist = true): void {
    this.acting = acting;
    if (persist) {
      this.chosen = true;
      this.generation++;
      writeStored(this.storage, acting);
    }
    this.emit();
  }

  /** Tells listeners that what the identity may do changed (a grant was applied), without changing it. */
  refresh(): void {
    this.generation++;
    this.emit();
  }

  /** The last user the server named for the current identity, if any. */
  serverSeen(): ServerSeenUser | undefined {
    return this.seen !== undefined && this.seen.acting === this.acting?.name ? this.seen : undefined;
  }

  /** Notes who the server says sent `request`, from a 403's explanation (the server's word, not the UI's guess). */
  observe(request: Request, response: Response): void {
    if (response.status !== 403 || this.acting === undefined) return;
    const explanation = explanationFromHeaders(response.headers);
    if (explanation?.kind !== 'authorization') return;
    const url = new URL(request.url, location.href);
    this.seen = {
      acting: this.acting.name,
      username: explanation.user.username,
      groups: explanation.user.groups,
      request: `${request.method} ${url.pathname}${url.search}`,
    };
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An immutable view for React's useSyncExternalStore: a new object after every change. */
  snapshot(): { acting: ActingAs | undefined; version: number } {
    if (this.snap.acting !== this.acting || this.snap.version !== this.generation)
      this.snap = { acting: this.acting, version: this.generation };
    return this.snap;
  }

  private snap: { acting: ActingAs | undefined; version: number } = { acting: undefined, version: 0 };

  private emit(): void {
    for (const l of this.listeners) l(this.acting);
  }
}

/**
 * Adds the acting identity's credentials to every request (except the
 * sandbox's identity API itself, which is public). A request that already
 * carries `Authorization` is sent as it is: that is how the UI sends a
 * request as admin on purpose (applying a suggested grant).
 */
export function identityFetch(
  store: IdentityStore,
  inner: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const path = new URL(request.url, location.href).pathname;
    if (path === identitiesPath || path === oidcTokenPath) return inner(request);
    const acting = await store.resolve();
    if (acting === undefined || request.headers.has('authorization')) return inner(request);
    const headers = new Headers(request.headers);
    if (acting.token !== undefined && acting.certificate === undefined)
      headers.set('authorization', `Bearer ${acting.token}`);
    if (acting.impersonate !== undefined && acting.impersonate.user !== '') {
      headers.set('impersonate-user', acting.impersonate.user);
      for (const g of acting.impersonate.groups) headers.append('impersonate-group', g);
      if (acting.impersonate.uid !== undefined && acting.impersonate.uid !== '')
        headers.set('impersonate-uid', acting.impersonate.uid);
    }
    let outgoing = new Request(request, { headers });
    // The signature covers the impersonation headers' request as sent, so sign last.
    if (acting.certificate !== undefined)
      outgoing = await signRequest(outgoing, await credentialOf(acting.certificate));
    const response = await inner(outgoing);
    store.observe(outgoing, response);
    return response;
  };
}

/** Reads the built-in identities from the sandbox API. */
export async function loadIdentities(options: { certificates?: boolean } = {}): Promise<SandboxIdentity[]> {
  const url = options.certificates === false ? deferredIdentitiesPath : identitiesPath;
  const response = await ((options.certificates === false ? takeAskedByPage() : undefined) ??
    fetch(url, { headers: { accept: 'application/json' } }));
  if (!response.ok) throw new Error(`${identitiesPath}: ${response.status}`);
  const body = (await response.json()) as { items?: SandboxIdentity[] };
  return body.items ?? [];
}

/**
 * The deferred identities list that index.html asked for on a reload, before the main script ran (the same
 * request as above; see its inline script), taken once.
 */
function takeAskedByPage(): Promise<Response> | undefined {
  const page = globalThis as { __orchIdentities?: Promise<Response> };
  const asked = page.__orchIdentities;
  delete page.__orchIdentities;
  return asked;
}

/** Asks the sandbox's OIDC issuer for an id_token for `sub` (the server accepts it as a bearer token). */
export async function mintOidcToken(
  sub: string,
  groups: string[],
): Promise<{ idToken: string; issuer: string }> {
  const response = await fetch(oidcTokenPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ sub, groups }),
  });
  const body = (await response.json()) as { id_token?: string; issuer?: string; message?: string };
  if (!response.ok || body.id_token === undefined)
    throw new Error(body.message ?? `${oidcTokenPath}: HTTP ${response.status}`);
  return { idToken: body.id_token, issuer: body.issuer ?? '' };
}

/** The acting identity for a built-in one: its token, or its certificate. */
export function actingAsBuiltIn(identity: SandboxIdentity, impersonate?: Impersonation): ActingAs {
  const expected = { username: identity.username, groups: identity.groups };
  const base: ActingAs =
    identity.clientCertificatePEM !== undefined && identity.clientKeyPEM !== undefined
      ? {
          name: identity.name,
          method: 'certificate',
          certificate: { certificatePEM: identity.clientCertificatePEM, keyPEM: identity.clientKeyPEM },
          expected,
        }
      : { name: identity.name, method: 'token', ...withToken(identity.token), expected };
  return impersonate === undefined ? base : { ...base, impersonate };
}

function withToken(token: string | undefined): { token?: string } {
  return token === undefined ? {} : { token };
}

/** The user the server should see: the impersonated one when impersonating, else the identity's own. */
export function effectiveUser(
  acting: ActingAs | undefined,
): { username: string; groups: string[] } | undefined {
  if (acting === undefined) return undefined;
  if (acting.impersonate !== undefined && acting.impersonate.user !== '')
    // The server adds system:authenticated to an impersonated user that is not anonymous.
    return {
      username: acting.impersonate.user,
      groups:
        acting.impersonate.user === 'system:anonymous'
          ? acting.impersonate.groups
          : [
              ...acting.impersonate.groups.filter((g) => g !== 'system:authenticated'),
              'system:authenticated',
            ],
    };
  if (acting.method === 'anonymous' || (acting.token === undefined && acting.certificate === undefined))
    return { username: 'system:anonymous', groups: ['system:unauthenticated'] };
  return acting.expected;
}

// Importing a key costs a few milliseconds; every request of a certificate identity needs it.
const credentials = new Map<string, Promise<ClientCredential>>();

/** WebCrypto key and DER chain of a certificate identity (imported once, non-extractable). */
export function credentialOf(certificate: {
  certificatePEM: string;
  keyPEM: string;
}): Promise<ClientCredential> {
  const key = certificate.keyPEM + certificate.certificatePEM;
  let found = credentials.get(key);
  if (found === undefined) {
    found = credentialFromPEM(certificate.certificatePEM, certificate.keyPEM);
    found.catch(() => credentials.delete(key));
    credentials.set(key, found);
  }
  return found;
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

function readStored(storage: Storage | undefined): ActingAs | undefined {
  try {
    const text = storage?.getItem(identityKey);
    if (text === null || text === undefined) return undefined;
    const value = JSON.parse(text) as Partial<ActingAs>;
    return typeof value.name === 'string' ? (value as ActingAs) : undefined;
  } catch {
    return undefined;
  }
}

function readSaved(storage: Storage | undefined): ActingAs[] {
  try {
    const value: unknown = JSON.parse(storage?.getItem(savedKey) ?? '[]');
    return Array.isArray(value)
      ? value.filter((a): a is ActingAs => typeof (a as Partial<ActingAs> | null)?.name === 'string')
      : [];
  } catch {
    return [];
  }
}

function writeStored(storage: Storage | undefined, acting: ActingAs): void {
  try {
    storage?.setItem(identityKey, JSON.stringify(acting));
  } catch {
    // Storage disabled: the choice lasts for this page only.
  }
}
