/**
 * Who is asking and may they: the server's authentication chain, its
 * authorizer and the built-in identities, composed from the options, the
 * shared informers and the state the server keeps (cluster CA,
 * service-account signing key, the sandbox OIDC issuer's key, the built-in
 * tokens — kept in storage settings so they survive restarts, reset and
 * import; the tokens are generated on first start, the cluster CA, the
 * service-account signer's key and the OIDC issuer's key when first needed,
 * so that neither the X.509 library nor an RSA generation is on the first
 * response's path).
 */

import type { KubeObject } from '../api/meta';
import type { UserInfo } from '../api/authn';
import type { NamingProfile } from '../machinery/naming';
import type { Storage } from '../storage/types';
import { initialSetting, type SettingReader } from '../storage/settings';
import type { AuthenticationConfig, ExternalFetch } from '../auth/authn/config';
import {
  apiAudiences as apiAudiencesOf,
  buildAuthentication,
  type AuthenticationChain,
} from '../auth/authn/chain';
import type { TokenUnion } from '../auth/authn/union';
import { StaticTokens } from '../auth/authn/static-tokens';
import {
  loadVerificationKeys,
  ServiceAccountSigner,
  serviceAccountUsername,
  type VerificationKey,
} from '../auth/authn/service-account-signer';
import { x509Authenticator } from '../auth/authn/x509';
import { withProofOfPossession } from '../auth/authn/proof-of-possession';
import { requestHeaderAuthenticator } from '../auth/authn/request-header';
import { deferredTokenAuthenticator, externalTokenAuthenticators } from '../auth/authn/library';
import { yamlLibrary } from '../machinery/decode/yaml-library';
import { onceAsync } from '../machinery/once-async';
import {
  createCertificateAuthority,
  exportCertificateAuthority,
  exportPrivateKeyPEM,
  importCertificateAuthority,
  issueClientCertificate,
  issueServingCertificate,
  type CertificateAuthority,
  type PersistedCertificateAuthority,
  parseRoots,
  x509Library,
} from '../auth/pki/index';
import { createSandboxIssuer, generateIssuerKey, type SandboxIssuer } from '../auth/oidc-issuer/index';
import {
  authorizerIndexes,
  createAuthorizer,
  type AuthorizationMode,
  type ServerAuthorizer,
} from '../auth/authz/index';
import { policyNames } from '../auth/policy/names';
import { systemNodeRules } from '../auth/policy/node-role';
import type { SharedInformerFactory } from '../registry/cache/factory';
import type { Lister } from '../registry/cache/types';

/** A built-in identity the sandbox offers (UI switcher, kubeconfig contexts, scripted workshops). */
export interface BuiltInIdentity {
  name: string;
  username: string;
  groups: string[];
  token?: string;
  clientCertificatePEM?: string;
  clientKeyPEM?: string;
  /** A certificate identity listed before its certificate was issued (ask again with certificates to get it). */
  clientCertificate?: 'deferred';
  /** The service account listed before its signing key was made (ask again with certificates to get its token). */
  serviceAccountToken?: 'deferred';
}

/** What the server keeps in storage settings for identity, created on first start. */
interface SavedIdentityState {
  adminToken: string;
  aliceToken: string;
  /**
   * The cluster CA of a state written before the CA was created on first use; newer states keep it in its
   * own setting (`clusterCASetting`), created when first needed.
   */
  clusterCA?: PersistedCertificateAuthority;
  /**
   * The service-account signer's key of a state written before that key was created on first use; newer
   * states keep it in its own setting (`serviceAccountKeySetting`), created when first needed.
   */
  serviceAccountKey?: Record<string, unknown>;
  /**
   * The sandbox OIDC issuer's key of a state written before that key was created on first use; newer states
   * keep it in its own setting (`oidcIssuerKeySetting`), created when first needed.
   */
  oidcIssuerKey?: Record<string, unknown>;
}

const identitySetting = 'sandbox.identity';
/** The cluster CA (certificate and key, PEM), created when first needed so a first start does not wait for it. */
const clusterCASetting = 'sandbox.identity.clusterCA';
/** The sandbox OIDC issuer's private key (JWK), created on its first use (a key set, a minted token). */
const oidcIssuerKeySetting = 'sandbox.identity.oidcIssuerKey';
/**
 * The service-account signer's private key (JWK), created on its first use (a token signed, a token to verify
 * whose key may exist, the issuer's key set). Unused while `--service-account-signing-key-file` is given.
 */
const serviceAccountKeySetting = 'sandbox.identity.serviceAccountKey';
/** The settings `createIdentity` reads at start: a caller may read them with its own (`readSetting`). */
export const identityStartSettings: readonly string[] = [
  identitySetting,
  clusterCASetting,
  serviceAccountKeySetting,
];

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const systemAdmin: UserInfo = { username: 'system:admin', groups: ['system:masters'] };
export const alice: UserInfo = { username: 'alice', groups: [] };

/** The namespace and name of the service account the sandbox hands out a token for. */
export const sandboxServiceAccount = { namespace: 'default', name: 'sandbox-learner' };

export interface IdentityOptions {
  profile: NamingProfile;
  storage: Storage;
  informers: SharedInformerFactory;
  authentication: AuthenticationConfig | undefined;
  authorizationModes: readonly AuthorizationMode[];
  /** Tokens a host hands in that act as the cluster administrator (the Node host's kubeconfig token). */
  adminTokens: readonly string[];
  now: () => Date;
  /** `now` in milliseconds, without a `Date` (the token cache reads it on every request); default from `now`. */
  nowMs?: () => number;
  /** `--service-account-signing-key-file` contents: sign with this key instead of the generated one kept with the state. */
  serviceAccountSigningKeyPEM?: string;
  /** Told of each Secret whose legacy token authenticated (legacy token tracking). */
  legacyTokenUsed?: (secret: KubeObject) => void;
  /** Reads the start's settings (`identityStartSettings`), e.g. from one read with the caller's; default the store. */
  readSetting?: SettingReader;
}

export interface Identity {
  chain: AuthenticationChain;
  tokens: TokenUnion;
  authorizer: ServerAuthorizer;
  staticTokens: StaticTokens;
  issuer: SandboxIssuer;
  /**
   * The service-account token signer. Without `--service-account-signing-key-file`, its key is the sandbox's
   * own: on a fresh store the first call creates it (every replica keeps the first one stored); later calls
   * share it.
   */
  signer(): Promise<ServiceAccountSigner>;
  /** The issuer of the bound tokens it signs (the first `--service-account-issuer`), known without the key. */
  signingIssuer: string;
  /** `--api-audiences` (default: the signing issuer): the audiences of tokens minted for the API server. */
  apiAudiences: string[];
  /** Every public key that verifies service-account tokens (the issuer's JWKS); creates the signer's key. */
  verificationKeys(): Promise<VerificationKey[]>;
  /**
   * The cluster CA's certificate (PEM), trusted for client certificates. On a fresh store the CA is created by
   * the first call (every replica keeps the first one stored); later calls share it.
   */
  caPEM(): Promise<string>;
  /** The cluster CA's certificate when it exists already (no creation, no X.509 library), else undefined. */
  knownCaPEM(): string | undefined;
  /** The cluster CA with its key: the default signer of certificate requests (`--cluster-signing-*-file` unset). */
  clusterCA(): Promise<CertificateAuthority>;
  /**
   * Every CA a client certificate is verified against, as one PEM bundle, in the order the real server's TLS
   * handshake names them to the client: `--client-ca-file`'s, the cluster CA (which this server always trusts),
   * then `--requestheader-client-ca-file`'s. Creates the cluster CA on a fresh store.
   */
  clientCertificateAuthoritiesPEM(): Promise<string>;
  /** Issues a serving certificate for the host from the cluster CA. */
  servingCertificate(
    dnsNames: string[],
    ipAddresses: string[],
  ): Promise<{ certPEM: string; keyPEM: string; caPEM: string }>;
  /**
   * The built-in identities with their credentials (the service account's token once it exists). With
   * `certificates: false`, a certificate identity whose certificate was not issued yet is listed without it
   * (`clientCertificate: 'deferred'`), so the answer waits neither for the X.509 library nor for the cluster CA.
   */
  identities(
    serviceAccountUid: string | undefined,
    options?: { certificates?: boolean },
  ): Promise<BuiltInIdentity[]>;
  /** Writes this identity state back to storage (after an import replaced the settings underneath). */
  save(): Promise<void>;
}

/** A fresh store's identity state (the built-in identities' tokens). */
const newIdentityState = (): SavedIdentityState => ({
  adminToken: randomToken(),
  aliceToken: randomToken(),
});

/**
 * The identity state's setting and how a fresh store's is made, for a start that initializes its settings
 * together (`initialSettings`): the reader it passes as `readSetting` then answers the state as stored.
 */
export const identityInitialSettings: Readonly<Record<string, () => unknown>> = {
  [identitySetting]: newIdentityState,
};

function loadState(storage: Storage, read: SettingReader): Promise<SavedIdentityState> {
  // Replicas starting together on an empty store each generate a state; all keep the first one stored.
  return initialSetting(storage, identitySetting, newIdentityState, read);
}

/**
 * Generates the sandbox's service-account signing key (private JWK): one RSA 2048 generation (WebCrypto runs
 * it off the calling thread; 0.1–0.8 s under load), made when first needed (see `Identity.signer`).
 */
export async function generateServiceAccountKey(profile: NamingProfile): Promise<Record<string, unknown>> {
  const signer = await ServiceAccountSigner.generate(profile, serviceAccountIssuer(profile));
  return (await signer.exportJWK()) as Record<string, unknown>;
}

/**
 * The cluster CA as stored: in the identity state of an older store, else in its own setting, created on a
 * fresh store (replicas starting together each generate one; all keep the first one stored).
 */
function loadClusterCA(
  storage: Storage,
  profile: NamingProfile,
  state: SavedIdentityState,
): Promise<PersistedCertificateAuthority> {
  if (state.clusterCA !== undefined) return Promise.resolve(state.clusterCA);
  return initialSetting(storage, clusterCASetting, async () =>
    exportCertificateAuthority(
      await createCertificateAuthority({ commonName: `${profile.word}-sandbox-ca` }),
    ),
  );
}

/** The sandbox issuer's logical base URL: discovery and keys are answered in-process, so it need not resolve. */
function oidcBase(profile: NamingProfile): string {
  return `https://sandbox.${profile.word}.internal`;
}

/** The service-account token issuer (`--service-account-issuer`), as a cluster's in-cluster API address. */
export function serviceAccountIssuer(profile: NamingProfile): string {
  // The default Service named for the profile's word: `orch` (upstream `kubernetes`).
  return `https://${profile.word}.default.svc.cluster.local`;
}

/** The PEM private key of a certificate issued with a generated key pair. */
async function privateKeyOf(issued: { keys?: CryptoKeyPair }): Promise<string> {
  if (issued.keys === undefined) throw new Error('the certificate was issued for a key it does not hold');
  return exportPrivateKeyPEM(issued.keys.privateKey);
}

export async function createIdentity(o: IdentityOptions): Promise<Identity> {
  const { profile, informers } = o;
  const saIssuer = serviceAccountIssuer(profile);
  const read: SettingReader = o.readSetting ?? ((name) => o.storage.getSetting(name));
  const state = await loadState(o.storage, read);
  // The stored CA and service-account key (see below) are read together, in two concurrent reads (or answered
  // from the caller's read of the start's settings).
  const [storedCA, storedKey] = await Promise.all([
    state.clusterCA ?? read<PersistedCertificateAuthority>(clusterCASetting),
    o.serviceAccountSigningKeyPEM === undefined
      ? (state.serviceAccountKey ?? read<Record<string, unknown>>(serviceAccountKeySetting))
      : undefined,
  ]);
  // The CA's PEM is known at once when stored; creating it (a fresh store) or importing it (the X.509 library)
  // waits until something needs it, so the server's first response does not.
  let knownCA: PersistedCertificateAuthority | undefined = storedCA;
  // Each is done once and shared; a failure (the library could not be loaded) is tried again by the next caller.
  const loadPersistedCA = onceAsync(async (): Promise<PersistedCertificateAuthority> => {
    knownCA ??= await loadClusterCA(o.storage, profile, state);
    return knownCA;
  });
  const loadCA = onceAsync(async () => importCertificateAuthority(await loadPersistedCA()));
  const caPEM = async (): Promise<string> => (await loadPersistedCA()).certificatePEM;
  // The first `--service-account-issuer` signs, as on the real server; the sandbox's own is the default.
  const signingIssuer = o.authentication?.serviceAccount?.issuers[0] ?? saIssuer;
  // The signer's key: the flag's (read now, so that a bad one refuses the start), an older state's, else its own
  // setting — read now when stored, created by the first use otherwise (a token signed, the issuer's key set),
  // so the first response does not wait for an RSA generation. Every replica keeps the first one stored.
  // Once known, this server's key stays its own (an import writes it back rather than adopting another).
  const ownKey = onceAsync(
    async (): Promise<Record<string, unknown>> =>
      storedKey ??
      initialSetting(o.storage, serviceAccountKeySetting, () => generateServiceAccountKey(profile)),
  );
  let knownSigner: ServiceAccountSigner | undefined =
    o.serviceAccountSigningKeyPEM !== undefined
      ? await ServiceAccountSigner.fromPEM(o.serviceAccountSigningKeyPEM, profile, signingIssuer)
      : storedKey !== undefined
        ? await ServiceAccountSigner.fromJWK(storedKey, profile, signingIssuer)
        : undefined;
  // Known at start: its key is among the verification keys from the start, as always. Not yet: the token
  // authenticators ask for it with each token (`lateSigner`), and the key set makes it.
  const signerAtStart = knownSigner;
  const signer = onceAsync(async (): Promise<ServiceAccountSigner> => {
    knownSigner ??= await ServiceAccountSigner.fromJWK(await ownKey(), profile, signingIssuer);
    return knownSigner;
  });
  // The signer if its key exists, in this server or stored by another replica (a read, no generation).
  const existingSigner = async (): Promise<ServiceAccountSigner | undefined> =>
    knownSigner ??
    ((await o.storage.getSetting(serviceAccountKeySetting)) !== undefined ? signer() : undefined);
  // The issuer's key: an older state's, else its own setting, created by the first use (a key set, a minted
  // token, an OIDC token to verify). Every replica keeps the first one stored; one server makes it once.
  const oidcIssuerKey = onceAsync(
    async (): Promise<Record<string, unknown>> =>
      state.oidcIssuerKey ??
      initialSetting(
        o.storage,
        oidcIssuerKeySetting,
        async () => (await generateIssuerKey()) as Record<string, unknown>,
      ),
  );
  const issuer = await createSandboxIssuer({ baseURL: oidcBase(profile), key: oidcIssuerKey, now: o.now });

  const lister = (
    group: string,
    resource: string,
    indexes: Record<string, (o: never) => readonly string[]> = {},
  ): Lister => {
    const informer = informers.informerFor({ group, resource });
    for (const [name, fn] of Object.entries(indexes)) informer.addIndex(name, fn as never);
    return informer.lister;
  };
  const rbacGroup = profile.suffixed('rbac.authorization');
  const pods = lister('', 'pods', authorizerIndexes.pods);
  const listers = {
    secrets: lister('', 'secrets'),
    serviceAccounts: lister('', 'serviceaccounts'),
    pods,
  };

  const staticTokens = new StaticTokens();
  for (const token of [state.adminToken, ...o.adminTokens]) staticTokens.add(token, systemAdmin);
  staticTokens.add(state.aliceToken, alice);

  const config = o.authentication ?? {};
  const external: ExternalFetch = async (request, options) => {
    // The sandbox issuer answers in-process; anything else goes through the host's transport.
    if (request.url.startsWith(issuer.issuerURL)) return issuer.fetch(request, options);
    if (config.fetch === undefined) throw new Error(`no transport to reach ${new URL(request.url).host}`);
    return config.fetch(request, options);
  };
  const saConfig = config.serviceAccount ?? { keys: [], issuers: [] };
  const fullConfig: AuthenticationConfig = {
    ...config,
    serviceAccount: {
      ...saConfig,
      keys: [...saConfig.keys, ...(signerAtStart?.publicKeysPEM() ?? [])],
      issuers: saConfig.issuers.includes(saIssuer) ? saConfig.issuers : [...saConfig.issuers, saIssuer],
    },
    // Without an issuer of its own, the sandbox's issuer is the OIDC provider, so learners can try OIDC offline.
    oidc: config.oidc ?? {
      issuerURL: issuer.issuerURL,
      clientID: 'sandbox',
      usernameClaim: 'sub',
      usernamePrefix: 'oidc:',
      groupsClaim: 'groups',
      groupsPrefix: 'oidc:',
    },
  };
  const clientCA = async (): Promise<string> =>
    [await caPEM(), ...(config.clientCA !== undefined ? [config.clientCA] : [])].join('\n');
  // CA files given as flags (the Node host) are read at start: a malformed one stops the start
  // instead of failing the first client certificate. The authenticators parse them again when first used.
  if (config.clientCA !== undefined || config.requestHeader !== undefined) {
    await x509Library.load();
    parseRoots(config.clientCA ?? '');
    parseRoots(config.requestHeader?.clientCA ?? '');
  }
  // The token webhook's kubeconfig is YAML, parsed as its authenticator is built.
  if (config.webhook !== undefined) await yamlLibrary.load();
  // OIDC and the token webhook configured by flags are built now, so that a bad configuration refuses the start;
  // the sandbox issuer's OIDC authenticator (valid by construction) is built with the first token it is asked.
  if (config.oidc !== undefined || config.webhook !== undefined) await externalTokenAuthenticators.load();
  const oidcConfig = fullConfig.oidc ?? { issuerURL: issuer.issuerURL, clientID: 'sandbox' };
  const oidcOptions = { fetch: external, now: o.now };
  const { chain, tokens, apiAudiences } = await buildAuthentication({
    config: fullConfig,
    profile,
    // The server's clock (injectable): token expirations (bootstrap tokens, JWTs) and the success cache follow it.
    now: o.nowMs ?? (() => o.now().getTime()),
    listers,
    staticTokens,
    ...(signerAtStart === undefined
      ? {
          // A token without a key id is tried with every key: the signer's is made for it, so it fails as it
          // would against an existing key; with a key id, only an existing key can be the one.
          lateKeys: async ({ create }: { create: boolean }) => {
            const late = create ? await signer() : await existingSigner();
            return late === undefined ? [] : [late.key];
          },
        }
      : {}),
    ...(o.legacyTokenUsed !== undefined ? { legacyTokenUsed: o.legacyTokenUsed } : {}),
    // Certificates, tokens and proofs are judged at the server's time: they expire as the clock moves.
    x509: withProofOfPossession(x509Authenticator({ clientCA, now: o.now }), { now: o.now }),
    ...(config.requestHeader !== undefined
      ? {
          requestHeader: withProofOfPossession(
            requestHeaderAuthenticator(config.requestHeader, { now: o.now }),
            {
              now: o.now,
            },
          ),
        }
      : {}),
    oidc:
      config.oidc !== undefined
        ? externalTokenAuthenticators.get().oidcAuthenticator(oidcConfig, oidcOptions)
        : deferredTokenAuthenticator((library) => library.oidcAuthenticator(oidcConfig, oidcOptions)),
    ...(config.webhook !== undefined
      ? {
          // Without audiences of its own in a reply, the webhook's answer holds for the API server's.
          webhook: externalTokenAuthenticators.get().tokenWebhookAuthenticator(config.webhook, {
            fetch: external,
            profile,
            apiAudiences: apiAudiencesOf(fullConfig),
            now: o.now,
          }),
        }
      : {}),
  });

  const configuredKeys = (
    await Promise.all((fullConfig.serviceAccount?.keys ?? []).map((pem) => loadVerificationKeys(pem)))
  ).flat();
  const verificationKeys = async (): Promise<VerificationKey[]> => [
    ...new Map(
      [...configuredKeys, ...(signerAtStart === undefined ? [(await signer()).key] : [])].map((k) => [
        k.kid,
        k,
      ]),
    ).values(),
  ];

  // Every change to an RBAC object, as the authorizer's listers see it, retires its remembered decisions.
  let rbacGeneration = 0;
  for (const resource of ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'])
    informers.informerFor({ group: rbacGroup, resource }).addEventHandler({
      add: () => void rbacGeneration++,
      update: () => void rbacGeneration++,
      delete: () => void rbacGeneration++,
    });
  const authorizer = createAuthorizer(o.authorizationModes, {
    profile,
    rbacGeneration: () => rbacGeneration,
    rbac: {
      roles: lister(rbacGroup, 'roles'),
      roleBindings: lister(rbacGroup, 'rolebindings', authorizerIndexes.rolebindings),
      clusterRoles: lister(rbacGroup, 'clusterroles'),
      clusterRoleBindings: lister(rbacGroup, 'clusterrolebindings', authorizerIndexes.clusterrolebindings),
    },
    node: {
      pods,
      persistentVolumes: lister('', 'persistentvolumes', authorizerIndexes.persistentvolumes),
      volumeAttachments: lister(profile.suffixed('storage'), 'volumeattachments'),
      nodeRules: systemNodeRules(policyNames(profile)),
    },
  });

  let certUser: { certPEM: string; keyPEM: string } | undefined;
  // The identities list is asked on every page load, and the sandbox account's token carries the same claims
  // whoever asks, so one RS256 signature per page load is work without a purpose (0117: no gain resolved on the
  // bench, one signature less per list). The last one signed is handed out again while it has most of its life
  // left, as a kubelet reuses a projected token until 80 % of its lifetime: same signer (a new key signs anew),
  // same account uid, and the clock (the sandbox's, which may be moved) not before its issue nor past 80 % of
  // its lifetime.
  const accountTokenSeconds = 365 * 24 * 3600;
  let accountToken:
    { signer: ServiceAccountSigner; uid: string; issuedAt: number; token: string } | undefined;
  const sandboxAccountToken = async (signer: ServiceAccountSigner, uid: string): Promise<string> => {
    const now = Math.floor(o.now().getTime() / 1000);
    const kept = accountToken;
    if (
      kept !== undefined &&
      kept.signer === signer &&
      kept.uid === uid &&
      now >= kept.issuedAt &&
      now < kept.issuedAt + accountTokenSeconds * 0.8
    )
      return kept.token;
    const { namespace, name } = sandboxServiceAccount;
    const token = await signer.signBound({
      namespace,
      account: { name, uid },
      audiences: apiAudiences,
      expirationSeconds: accountTokenSeconds,
      now,
    });
    accountToken = { signer, uid, issuedAt: now, token };
    return token;
  };
  return {
    async save() {
      await o.storage.setSetting(identitySetting, state);
      if (state.clusterCA === undefined)
        await o.storage.setSetting(clusterCASetting, await loadPersistedCA());
      if (state.oidcIssuerKey === undefined)
        await o.storage.setSetting(oidcIssuerKeySetting, await oidcIssuerKey());
      if (state.serviceAccountKey === undefined && o.serviceAccountSigningKeyPEM === undefined)
        await o.storage.setSetting(serviceAccountKeySetting, await ownKey());
    },
    chain,
    tokens,
    authorizer,
    staticTokens,
    issuer,
    signer,
    signingIssuer,
    apiAudiences,
    verificationKeys,
    caPEM,
    knownCaPEM: () => knownCA?.certificatePEM,
    clusterCA: loadCA,
    async clientCertificateAuthoritiesPEM() {
      return [config.clientCA, await caPEM(), config.requestHeader?.clientCA]
        .filter((pem): pem is string => pem !== undefined && pem.trim() !== '')
        .map((pem) => pem.trim())
        .join('\n');
    },
    async servingCertificate(dnsNames, ipAddresses) {
      const issued = await issueServingCertificate(await loadCA(), {
        commonName: dnsNames[0] ?? 'localhost',
        dnsNames,
        ipAddresses,
      });
      return { certPEM: issued.pem, keyPEM: await privateKeyOf(issued), caPEM: await caPEM() };
    },
    async identities(serviceAccountUid, options = {}) {
      const deferred = options.certificates === false && certUser === undefined;
      if (certUser === undefined && !deferred) {
        const issued = await issueClientCertificate(await loadCA(), {
          user: 'sandbox-admin',
          groups: ['system:masters'],
        });
        certUser = { certPEM: issued.pem, keyPEM: await privateKeyOf(issued) };
      }
      const list: BuiltInIdentity[] = [
        {
          name: 'admin',
          ...systemAdmin,
          groups: [...systemAdmin.groups, 'system:authenticated'],
          token: state.adminToken,
        },
        {
          name: 'admin-cert',
          username: 'sandbox-admin',
          groups: ['system:masters', 'system:authenticated'],
          ...(certUser !== undefined
            ? { clientCertificatePEM: certUser.certPEM, clientKeyPEM: certUser.keyPEM }
            : { clientCertificate: 'deferred' as const }),
        },
        {
          name: 'alice',
          username: alice.username,
          groups: ['system:authenticated'],
          token: state.aliceToken,
        },
      ];
      if (serviceAccountUid !== undefined) {
        const { namespace, name } = sandboxServiceAccount;
        // The deferred list does not wait for the signer's key either: without it, the token is left out.
        const tokenSigner = options.certificates === false ? await existingSigner() : await signer();
        const token =
          tokenSigner !== undefined ? await sandboxAccountToken(tokenSigner, serviceAccountUid) : undefined;
        list.push({
          name: 'service-account',
          username: serviceAccountUsername(namespace, name),
          groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
          ...(token !== undefined ? { token } : { serviceAccountToken: 'deferred' as const }),
        });
      }
      return list;
    },
  };
}
