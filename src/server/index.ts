/**
 * The composition root and the only server entry point: `createApiServer`
 * builds the whole API server around a storage backend and returns one
 * Web-standard `fetch` function. Hosts (service worker, Node) are thin
 * adapters around it.
 */

import { flushAfterAnswer } from '../machinery/after-answer';
import { turnArrived } from '../machinery/cooperative';
import type { UserInfo } from '../api/authn';
import type { ConnectionInfo } from '../api/connection';
import type { Status } from '../api/meta';
import { namingProfile, type NamingProfile } from '../machinery/naming';
import { newUid } from '../machinery/ids';
import { badRequest, resourceExpired, StatusError } from '../machinery/errors';
import { createAdmission, loadAdmissionPlugins, type ServerAdmissionDeps } from './admission';
import {
  admissionOptionsOf,
  admissionPluginStates,
  auditPolicyOf,
  loadYamlForSettings,
  type AdmissionSettings,
} from './admission-settings';
import type { AdmissionChain } from '../admission/chain';
import { TraceStore } from '../admission/trace-store';
import { createServerAudit } from './audit';
import { handleAuditApi, isAuditApiPath } from './sandbox-audit-api';
import { handleTraceApi, isTraceApiPath } from './sandbox-trace-api';
import { handleLessonApi, isLessonApiPath } from './sandbox-lessons-api';
import { unreachableTransport } from '../admission/webhook-transport';
import { backendStore, sandboxTransport } from '../admission/backends/index';
import { handleWebhookBackendApi, isWebhookBackendApiPath } from './sandbox-webhook-api';
import { Catalog } from '../registry/catalog';
import { builtInDefinitions, builtInRegistry, loadBuiltInDefinitions } from '../registry/builtins';
import { RestInstaller } from '../registry/installer';
import { legacyTokenTracker } from './legacy-token-tracking';
import type { StoreDeps } from '../registry/generic/store';
import type { ServiceAccountTokenService } from '../registry/kinds/types';
import type { ServerAuthorizer, AuthorizationMode } from '../auth/authz/index';
import {
  createIdentity,
  identityInitialSettings,
  identityStartSettings,
  sandboxServiceAccount,
  type BuiltInIdentity,
  type Identity,
} from './identity';
import { authenticate } from './filters/authentication';
import { impersonation } from './filters/impersonation';
import { authorize } from './filters/authorization';
import {
  handleIdentityApi,
  identitiesPath,
  isIdentityApiPath,
  isPublicIdentityPath,
} from './sandbox-identity-api';
import { loopbackIdentities, serviceAccount } from './loopback';
import { parseRuntimeConfig } from '../registry/runtime-config';
import { FeatureGateState } from './feature-gate-state';
import type { ResourceType } from '../registry/resource-type';
import { ContinueTokens } from '../http/continue-token';
import type { ServerContext } from '../http/server-context';
import { storageVersionHash } from '../http/discovery';
import {
  answerRequest,
  decodeRequest,
  handleRequest,
  type DecodedRequest,
  type PipelineDeps,
} from './pipeline';
import type { ApiServerOptions } from './options';
import { Metrics } from './metrics';
import { instrumentStorage } from './instrumented-storage';
import { storedObjectCounter } from './object-counts';
import { bootstrapHooks, ServerHealth } from './health/checks';
import { Lifecycle, type Entry } from './lifecycle';
import {
  bootstrap,
  createFreshStartupObjects,
  ensureNamespaces,
  ensureSandboxServiceAccount,
} from './bootstrap';
import { runSystemNamespaces, systemNamespaces } from './system-namespaces';
import { defaultOnPluginNames } from '../admission/plugins/index';
import { ForegroundRequests } from './foreground';
import { createOpenApiService } from '../http/openapi/service';
import { serverVersion } from '../http/nonresource';
import { Compactor, defaultCompactionIntervalMs } from './compaction';
import { WatchCaches } from '../registry/watch-cache/watch-caches';
import { WatchHub } from '../registry/generic/watch-hub';
import { collectionPrefix } from '../registry/keys';
import { CRD_RESOURCE, crdGroup } from '../machinery/crd';
import {
  deleteEverything,
  handleSandbox,
  profileSetting,
  type SandboxControl,
  type SandboxSettings,
} from './sandbox-api';
import { createClient } from '../client/client';
import type { Controller, ControllerContext } from '../controllers/types';
import { SandboxClock } from '../machinery/clock';
import { clusterSigningService } from './certificate-signing';
import { ensureClusterInfo, type AdvertisedAddress } from './cluster-info';
import { profileDefinitions } from '../registry/crd/definitions';
import { CrdRegistrar } from '../registry/crd/registrar';
import { SharedInformerFactory } from '../registry/cache/factory';
import { namespaceLister } from '../registry/cache/namespace-lister';
import {
  initialSetting,
  initialSettings,
  missingSettings,
  readSettings,
  type SettingReader,
} from '../storage/settings';
import type { ChangeRecord } from '../storage/types';
import { ServiceAllocators } from '../registry/kinds/core/service/allocators';
import type { Simulation } from '../simulation/index';
import { SettingsError, validateSimulationSettings, type SimulationSettings } from '../simulation/settings';
import { LazyModule } from '../machinery/lazy-module';
import type * as ControllerManager from './controller-manager.lazy';
import type * as PostStart from './post-start.lazy';
import { clockPath, clockSetting, handleClockApi } from './sandbox-clock-api';

import { handleNodesApi, isNodesApiPath } from './sandbox-nodes-api';
import {
  defaultServiceNodePortRange,
  parsePortRange,
  parseServiceClusterIPRanges,
} from '../machinery/service-ranges';
import {
  defaultAdvertiseAddress,
  defaultSecurePort,
  reconcileMasterService,
  watchMasterService,
} from './master-service';

/** The controllers and the simulated cluster, loaded once the server answers (see controller-manager.lazy.ts). */
const controllerManagerLibrary = new LazyModule<typeof ControllerManager>(
  'controller-manager',
  () => import('./controller-manager.lazy'),
);

/** The post-start hooks' writers (the default RBAC policy, the start-up objects), loaded before their writes. */
const postStartLibrary = new LazyModule<typeof PostStart>('post-start', () => import('./post-start.lazy'));

/** The storage setting naming the simulated nodes whose agent was stopped. */
const stoppedNodesSetting = 'sandbox.simulation.stopped';
/** The continue-token signing key and the workshop settings, as stored (see `applySavedSettings`). */
const continueTokenKeySetting = 'continueTokenKey';
/** A fresh store's continue-token key. */
const newContinueTokenKey = (): number[] => Array.from(crypto.getRandomValues(new Uint8Array(32)));
const sandboxSettingsSetting = 'sandbox.settings';
/** A pause this long with no request in flight ends a page's first screen (its rounds are a render apart). */
const FIRST_SCREEN_PAUSE_MS = 250;
/**
 * The post-start writes wait at most this long after the first answer, however busy the page: a first screen
 * takes 0.3–0.6 s idle after it, and a client that keeps polling (a test waiting for `/readyz`) must not hold
 * readiness back for long.
 */
const FIRST_SCREEN_MAX_WAIT_MS = 1500;
/**
 * A controller's or a simulated component's list waits for the clients' requests to pause this long: a client
 * asking in sequence leaves a gap of well under a millisecond between an answer and its next request.
 */
const BACKGROUND_PAUSE_MS = 5;
/** …but no longer than this, so that a client that never pauses slows the cluster down without stopping it. */
const BACKGROUND_MAX_WAIT_MS = 100;
/** A page announced as coming that never asks, or never pauses, holds the background work no longer than this. */
const PAGE_COMING_MAX_WAIT_MS = 1000;

export type { ApiServerOptions } from './options';
// What hosts need to carry exec streams (the Node host's SPDY and WebSocket) and to check simulation flags.
export type { UpgradeOffer } from '../api/connection';
export type { StreamIO, StreamSession, TerminalSize } from '../api/node-agent';
export {
  defaultSimulationSettings,
  parseLabelList,
  SettingsError,
  validateSimulationSettings,
  type SimulationSettings,
} from '../simulation/settings';
// What hosts need to validate `--show-hidden-metrics-for-version` against this server's version.
export { serverVersion } from '../http/nonresource';
export { showHiddenMetricsError } from './prometheus';
export { isLongRunningRequest } from './lifecycle';
// What a host whose scripts are local modules (Node) loads before its first request (0134).
export { loadBuiltInDefinitions } from '../registry/builtins';
// What a host whose request bodies are already in memory (the service worker) sets before the server starts.
export { setReadBodiesWhole } from '../http/body';
// What hosts need to run JavaScript webhook backends.
export type { ScriptJob, ScriptOutcome, ScriptRunner } from '../admission/backends/types';
// What hosts need to call webhooks (they import the server, never the admission layer).
export {
  WebhookCallError,
  type WebhookCall,
  type WebhookCallResult,
  type WebhookTransport,
} from '../admission/webhook-transport';

export interface ApiServer {
  /**
   * Answers one HTTP request, with what the host knows of its connection
   * (a verified TLS client certificate). Never rejects: failures become
   * Status responses.
   */
  fetch(request: Request, conn?: ConnectionInfo): Promise<Response>;
  /**
   * Resolves once the server answers requests: the identity state and the informers are read and the initial
   * namespaces exist. The default RBAC policy and the other start-up objects are written beside the first
   * answers, as the real server's post-start hooks run while it serves; `ready` says when they are done.
   */
  readonly serving: Promise<void>;
  /**
   * Resolves once the clients' first requests are answered and they paused (`deferPostStart`), else with
   * `serving`: when a host's own start-up work (the browser's shell precache) no longer holds them back.
   */
  readonly firstRequestsDone: Promise<void>;
  /**
   * A page is loading and its first requests are coming (the browser host hears of a page of its scope going
   * away): the controllers' lists, the in-process watches' changes and the post-start steps wait for that page's
   * first rounds, at most a second (`ForegroundRequests.pageComing`).
   */
  pageComing(): void;
  /**
   * Resolves once every post-start step has run (`/readyz` passes): the default RBAC policy and the start-up
   * objects exist and the controllers are started. Whoever acts as an identity other than the admin waits
   * for it.
   */
  readonly ready: Promise<void>;
  readonly profile: NamingProfile;
  /** The server's clock (timestamps, expiries, schedules), which the sandbox may move forward. */
  readonly clock: SandboxClock;
  /** Compacts the change history up to the current revision now (tests, workshops). */
  compact(): Promise<number>;
  /** Resolves when the in-server controllers have nothing queued (tests). */
  controllersIdle(): Promise<void>;
  /** Stops timers and open watches and closes the storage. */
  close(): Promise<void>;
  /** Graceful termination begins (SIGTERM): `/readyz` fails its `shutdown` check; requests are still served. */
  beginShutdown(): void;
  /** The shutdown delay has elapsed: new requests are refused (429 or 503, see lifecycle.ts). */
  stopAcceptingNew(): void;
  /** Resolves once no non-long-running request is in flight (after stopAcceptingNew). */
  drained(): Promise<void>;
  /** The built-in identities with their credentials (admin by token and by certificate, alice, a service account). */
  identities(): Promise<BuiltInIdentity[]>;
  /**
   * Creates (fresh store) or reads the cluster CA in the background as soon as the identity state is read,
   * beside the start rather than when something first needs it; nothing waits for it (the browser host calls
   * it: its page asks for the identities, which carry a client certificate, right after the first response).
   */
  prepareClusterCA(): void;
  /**
   * Creates (fresh store) or reads the service-account signer's key in the background once the server serves,
   * rather than when a token is first signed or verified; nothing waits for it (the browser host calls it once
   * the page's first screen was answered, so the identity picker's list does not wait for an RSA generation).
   */
  prepareServiceAccountKey(): void;
  /**
   * Where clients reach the server (known to a host once it listens), and the CA they trust it by (default the
   * cluster CA): creates the public `cluster-info` ConfigMap with it when missing, now and after a reset or import,
   * and updates a kept one that names another address or CA.
   */
  advertise(url: string, caPEM?: string): Promise<void>;
  /**
   * The CAs client certificates are verified against (PEM bundle): a host serving TLS names them in its
   * handshake's certificate request, as the real server does (`--client-ca-file`, `--requestheader-client-ca-file`).
   */
  clientCertificateAuthorities(): Promise<string>;
  /** A serving certificate for the host, issued by the cluster CA the server keeps with its state. */
  servingCertificate(
    dnsNames: string[],
    ipAddresses: string[],
  ): Promise<{ certPEM: string; keyPEM: string; caPEM: string }>;
}

/** A request answered only once the server is ready: the full built-in identities list (see fetch). */
function waitsForReadiness(method: string, url: URL): boolean {
  if (method !== 'GET' || !url.pathname.startsWith(identitiesPath)) return false;
  return url.pathname.replace(/\/+$/, '') === identitiesPath && !url.searchParams.has('certificates');
}

/** The server's own identity for what it does itself (bootstrap objects), as the real loopback client's. */
const systemApiserver: UserInfo = {
  username: 'system:apiserver',
  uid: newUid(),
  groups: ['system:masters', 'system:authenticated'],
};

export function createApiServer(options: ApiServerOptions): ApiServer {
  const profile = namingProfile(options.profile);
  const step = options.startStep ?? ((): void => undefined);
  // One clock for the whole server: timestamps, expiries, controllers' schedules; a learner may move it forward.
  const clock = new SandboxClock(options.now);
  const now = (): Date => clock.now();
  const metrics = new Metrics(
    options.showHiddenMetricsForVersion !== undefined
      ? { showHiddenMetricsForVersion: options.showHiddenMetricsForVersion }
      : {},
  );
  // Every store call is timed for etcd_request_duration_seconds, whatever the backend.
  const storage = instrumentStorage(options.storage, (op, type, seconds) =>
    metrics.observeStore(op, type, seconds),
  );
  const catalog = new Catalog(profile, profileDefinitions(profile, builtInDefinitions));
  // Every v1.27 gate's effective value, shared by reference (see feature-gate-state.ts).
  const gateState = new FeatureGateState(options.featureGates);
  const featureGates = gateState.effective;
  catalog.loadBuiltIns(builtInRegistry, parseRuntimeConfig(options.runtimeConfig), featureGates);
  // The workshop settings' runtime config (entries the host's --runtime-config does not name), see decision 0059.
  let savedRuntimeConfig = '';
  // Serves the built-ins the runtime config and the gates now ask for (a workshop setting changed).
  const reloadBuiltIns = (): void => {
    const text = [savedRuntimeConfig, options.runtimeConfig ?? ''].filter((t) => t.trim() !== '').join(',');
    catalog.reloadBuiltIns(builtInRegistry, parseRuntimeConfig(text), featureGates);
  };
  // The real server's start-up warning for each enabled group/version it has nothing to serve in.
  for (const gv of catalog.skippedGroupVersions)
    console.warn(`Skipping API ${gv} because it has no resources.`);
  // In-memory caches of the objects admission, authorization and the CRD registrar read synchronously.
  const informers = new SharedInformerFactory(storage);
  // Serves custom resources from the stored CRDs, as the real server's CRD handler does.
  const crdRegistrar = new CrdRegistrar(catalog, informers, profile);
  const shutdownCallbacks = new Set<(reason?: Status) => void>();
  const openapi = createOpenApiService(catalog, serverVersion.gitVersion);
  const compactor = new Compactor(storage, options.compactionIntervalMs ?? defaultCompactionIntervalMs);
  // Watches from a past resourceVersion are served from these windows, as the real cacher serves them.
  const watchCaches = new WatchCaches(
    storage,
    collectionPrefix({ group: crdGroup(profile), resource: CRD_RESOURCE }),
    now,
  );
  // One subscription to the store delivers every commit to every open watch, in slices when there are many.
  // With `watchesAfterAnswer` (the browser host) the in-process components' watches get their changes once the
  // clients' requests pause, as their lists wait (`behindClients` below; 0111).
  const watchHub = new WatchHub(
    storage,
    undefined,
    options.watchesAfterAnswer === true,
    options.watchesAfterAnswer === true
      ? (run) => foreground.afterPause(BACKGROUND_PAUSE_MS, BACKGROUND_MAX_WAIT_MS, run)
      : undefined,
  );
  const controllers: Controller[] = [];
  // Resolved once this server's serviceaccount controller has made its first pass, or when it will make none:
  // until then the ServiceAccount plugin waits for a missing `default` account (decision 0073).
  let defaultAccountsMade: () => void = () => undefined;
  const defaultAccounts = new Promise<void>((resolve) => (defaultAccountsMade = resolve));
  // Set with `--leader-elect`: the controller manager's controllers run only while this replica holds its Lease.
  let elector: ControllerManager.LeaderElector | undefined;
  // The address published in cluster-info: the option, or what the host advertises once it listens.
  let advertised: { url: string; caPEM?: string } | undefined =
    options.advertisedURL !== undefined ? { url: options.advertisedURL } : undefined;
  const advertisedAddress = async (): Promise<AdvertisedAddress | undefined> =>
    advertised === undefined
      ? undefined
      : { caPEM: advertised.caPEM ?? (await need().caPEM()), ...advertised };
  // Set by prepareClusterCA: the CA is created as soon as the identity state is read.
  let clusterCAWanted = false;
  // Set by close: work running beside the server (cluster-info's late write) stops trying.
  let closing = false;
  // The cluster CA for what runs beside the server (controllers, cluster-info): on a fresh store it is created
  // once the server answers (or earlier, beside the start, see prepareClusterCA), never on the path to its
  // first response (see Identity.caPEM).
  const clusterCAPEM = async (): Promise<string> => {
    await serving;
    return need().caPEM();
  };
  let tokens: ContinueTokens | undefined;
  let hashes: { generation: number; map: Map<ResourceType, string> } | undefined;

  const namespaces = namespaceLister(informers);
  // Authentication and authorization are composed once the server's identity state is read (see ready).
  let identity: Identity | undefined;
  const need = (): Identity => {
    if (identity === undefined) throw new StatusError(503, 'ServiceUnavailable', 'the server is starting');
    return identity;
  };
  // Storages are installed before that: they reach the authorizer and the token authenticators through these.
  const authorizer: ServerAuthorizer = {
    authorize: (a) => need().authorizer.authorize(a),
    authorizeSync: (a) => need().authorizer.authorizeSync(a),
    rulesFor: (user, namespace) => need().authorizer.rulesFor(user, namespace),
    decisions: (a) => need().authorizer.decisions(a),
    explain: (a) => need().authorizer.explain(a),
    rbacRulesFor: (user, namespace) => need().authorizer.rbacRulesFor(user, namespace),
    roleReferenceRules: (ref, namespace) => need().authorizer.roleReferenceRules(ref, namespace),
  };
  const tokenAuthenticator = {
    authenticateToken: (token: string, audiences?: readonly string[]) =>
      need().tokens.authenticateToken(token, audiences),
    reviewToken: (token: string, audiences?: readonly string[]) =>
      need().tokens.reviewToken(token, audiences),
  };
  const webhookBackends = backendStore(storage);
  const admissionDeps: ServerAdmissionDeps = {
    profile,
    featureGates,
    now,
    catalog,
    informers,
    namespaces,
    authorizer,
    installer: () => installer,
    transport: sandboxTransport(options.webhookTransport ?? unreachableTransport, {
      backends: webhookBackends,
      ...(options.scriptRunner !== undefined ? { scriptRunner: options.scriptRunner } : {}),
    }),
    metrics,
    defaultServiceAccounts: () => defaultAccounts,
    flags: {
      defaultNotReadyTolerationSeconds: options.admissionFlags?.defaultNotReadyTolerationSeconds ?? 300,
      defaultUnreachableTolerationSeconds: options.admissionFlags?.defaultUnreachableTolerationSeconds ?? 300,
    },
  };
  // The flags' admission settings; the workshop settings may replace them at run time (sandbox.update).
  let admissionSettings: AdmissionSettings = {
    enablePlugins: [...(options.admission?.enablePlugins ?? [])],
    disablePlugins: [...(options.admission?.disablePlugins ?? [])],
    configuration: '',
  };
  const storeDeps: StoreDeps & { admission: AdmissionChain } = {
    storage,
    admission: createAdmission(options.admission ?? {}, admissionDeps),
    definitions: catalog.definitions,
    profile,
    featureGates,
    now,
    tooLargeResourceVersionWaitMs: 3000,
    watchCaches,
    watchHub,
  };
  const saTokens = options.serviceAccountTokens ?? {};
  const serviceAccountTokens: ServiceAccountTokenService = {
    apiAudiences: () => need().apiAudiences,
    maxExpirationSeconds: () => saTokens.maxExpirationSeconds ?? 0,
    extendExpiration: () => saTokens.extendExpiration ?? true,
    signBound: async (request) => (await need().signer()).signBound(request),
  };
  // Cluster IPs and node ports: in memory, rebuilt from the stored Services at start, reset and import (decision 0027).
  const serviceAllocators = new ServiceAllocators(
    parseServiceClusterIPRanges(options.serviceClusterIPRange ?? ''),
    options.serviceNodePortRange !== undefined
      ? parsePortRange(options.serviceNodePortRange)
      : defaultServiceNodePortRange,
  );
  const servicesPrefix = collectionPrefix({ group: '', resource: 'services' });
  let stopServiceFollow: (() => void) | undefined;
  let serviceBacklog: ChangeRecord[] | undefined;
  // The simulated cluster (scheduler, node agents), built once the identities exist; see the start below.
  let simulation: Simulation | undefined;
  const simulationFlags = options.simulation === false ? undefined : options.simulation?.settings;
  let simulationSettings: SimulationSettings | undefined =
    options.simulation === false || options.controllers === false
      ? undefined
      : validateSimulationSettings(profile, simulationFlags ?? {});
  let stoppedNodes: string[] = [];
  const installer = new RestInstaller(catalog, storeDeps, {
    authorizer,
    tokenAuthenticator,
    serviceAccountTokens,
    serviceAllocators,
    // Pod logs and exec reach the simulated nodes' agents.
    nodeAgents: (address) => simulation?.nodeAgents(address),
  });
  catalog.setInstaller(() => installer.installAll());

  const objectCounter = storedObjectCounter(catalog, installer, options.storage);
  metrics.objectCounter = objectCounter;
  const health = new ServerHealth({
    // The real check reads one key; the raw store, so probes do not count as store requests.
    storeProbe: options.storeProbe ?? (() => options.storage.get('/registry/health')),
    livezGracePeriodMs: options.livezGracePeriodMs ?? 0,
    ...(options.controllers === false ? { without: ['poststarthook/start-apiextensions-controllers'] } : {}),
  });
  const lifecycle = new Lifecycle({
    sendRetryAfter: options.shutdownSendRetryAfter ?? false,
    loopbackUserAgentPrefix: `${profile.shortWord}-apiserver/`,
    inflight: (mutating, change) => metrics.inflightChanged(mutating, change),
  });
  // Set when a start-up write was refused by admission: the bootstrap post-start checks stay unfinished.
  let bootstrapRefused = false;

  const traces = new TraceStore();
  // The policy: the host's flag, else the workshop settings (applySavedSettings), else the host's default text.
  let auditPolicyText = options.audit?.policy !== undefined ? '' : (options.defaultAuditPolicy ?? '');
  const audit = createServerAudit(
    profile,
    options.audit?.policy ?? auditPolicyOf(profile, auditPolicyText),
    options.audit?.sinks ?? [],
    now,
  );
  const server: ServerContext = {
    profile,
    ...(options.keptAnswersAsBlobs === true ? { keptAnswersAsBlobs: true } : {}),
    traces,
    audit,
    catalog,
    rest: installer,
    now,
    get continueTokens(): ContinueTokens {
      if (tokens === undefined) throw new StatusError(503, 'ServiceUnavailable', 'the server is starting');
      return tokens;
    },
    featureGates,
    bookmarkIntervalMs: options.watchBookmarkIntervalMs ?? 60_000,
    onShutdown(callback) {
      shutdownCallbacks.add(callback);
      return () => shutdownCallbacks.delete(callback);
    },
    async storageVersionHashes() {
      if (hashes?.generation !== catalog.generation) {
        const map = new Map<ResourceType, string>();
        for (const g of catalog.groups())
          for (const v of g.versions)
            for (const rt of v.resources.values()) {
              // Kinds that are never stored (reviews) have no storage version to hash.
              if (installer.storages(rt).store === undefined) continue;
              const storageVersion = catalog.preferred(rt.group, rt.resource) ?? rt;
              map.set(
                rt,
                await storageVersionHash(storageVersion.group, storageVersion.version, storageVersion.kind),
              );
            }
        hashes = { generation: catalog.generation, map };
      }
      return hashes.map;
    },
    healthChecks: (endpoint) => health.checks(endpoint),
    metricsText: async () => metrics.text(),
    metrics,
    openapi: (ctx) => openapi.handle(ctx),
    issuerMetadata: () => {
      const { signingIssuer: issuer, verificationKeys } = need();
      // The real server publishes its issuer's metadata only for an https issuer URL.
      if (!URL.canParse(issuer) || new URL(issuer).protocol !== 'https:') return undefined;
      return {
        issuer,
        ...(saTokens.jwksURI !== undefined ? { jwksURI: saTokens.jwksURI } : {}),
        ...(advertised !== undefined ? { advertisedURL: advertised.url } : {}),
        // The signer's key is made here when it does not exist yet (a fresh store's first use).
        keys: async () => (await verificationKeys()).map((k) => k.jwk),
      };
    },
    sandbox: (ctx) =>
      isWebhookBackendApiPath(ctx.url.pathname.replace(/\/+$/, ''))
        ? handleWebhookBackendApi(webhookBackends, ctx)
        : isTraceApiPath(ctx.url.pathname.replace(/\/+$/, ''))
          ? handleTraceApi(traces, ctx, (callback) => server.onShutdown(callback))
          : isAuditApiPath(ctx.url.pathname.replace(/\/+$/, ''))
            ? Promise.resolve(
                handleAuditApi(audit.log, ctx, audit.policy !== undefined, profile.systemNamespace),
              )
            : isIdentityApiPath(ctx.url.pathname.replace(/\/+$/, ''))
              ? handleIdentityApi(
                  need(),
                  async (options) => need().identities(await sandboxServiceAccountUid(), options),
                  ctx,
                )
              : ctx.url.pathname.replace(/\/+$/, '') === clockPath
                ? handleClockApi(clock, (offsetMs) => storage.setSetting(clockSetting, { offsetMs }), ctx)
                : isNodesApiPath(ctx.url.pathname.replace(/\/+$/, ''))
                  ? handleNodesApi(
                      {
                        nodes: () => simulation?.nodes() ?? [],
                        async setRunning(name, running) {
                          if (simulation?.setRunning(name, running) !== true) return false;
                          stoppedNodes = simulation.stoppedNodes();
                          await storage.setSetting(stoppedNodesSetting, stoppedNodes);
                          return true;
                        },
                      },
                      ctx,
                    )
                  : isLessonApiPath(ctx.url.pathname.replace(/\/+$/, ''))
                    ? handleLessonApi(storage, ctx)
                    : handleSandbox(sandbox, storage, ctx),
  };

  const sandbox: SandboxControl = {
    settings: () => ({
      profile: profile.name,
      compactionIntervalMs: compactor.interval,
      featureGates: { ...featureGates },
      runtimeConfig: savedRuntimeConfig,
      admission: { ...admissionSettings },
      auditPolicy: auditPolicyText,
      admissionPlugins: admissionPluginStates(storeDeps.admission.names),
      ...(simulationSettings !== undefined ? { simulation: simulationSettings } : {}),
    }),
    async update(patch: Partial<SandboxSettings>) {
      await loadYamlForSettings(profile, patch);
      // Validated before anything changes: a bad plugin name or document is a 400 and nothing is saved.
      const admissionOptions =
        patch.admission !== undefined ? admissionOptionsOf(profile, patch.admission) : undefined;
      // Plugins off by default are a lazy script: loaded before the chain is built, so its errors are this 400.
      if (admissionOptions !== undefined) await loadAdmissionPlugins(admissionOptions);
      const policy = patch.auditPolicy !== undefined ? auditPolicyOf(profile, patch.auditPolicy) : undefined;
      let nextSimulation: SimulationSettings | undefined;
      if (patch.simulation !== undefined) {
        if (simulationSettings === undefined)
          throw badRequest('this server runs without a simulated cluster');
        try {
          nextSimulation = validateSimulationSettings(profile, {
            ...simulationSettings,
            ...patch.simulation,
          });
        } catch (e) {
          if (e instanceof SettingsError) throw badRequest(`simulation: ${e.message}`);
          throw e;
        }
      }
      if (patch.compactionIntervalMs !== undefined) compactor.setInterval(patch.compactionIntervalMs);
      if (patch.featureGates !== undefined) gateState.set(patch.featureGates);
      if (patch.runtimeConfig !== undefined) savedRuntimeConfig = patch.runtimeConfig;
      if (patch.featureGates !== undefined || patch.runtimeConfig !== undefined) reloadBuiltIns();
      if (patch.admission !== undefined && admissionOptions !== undefined) {
        admissionSettings = { ...patch.admission };
        storeDeps.admission = createAdmission(admissionOptions, admissionDeps);
      }
      if (patch.auditPolicy !== undefined) {
        auditPolicyText = patch.auditPolicy;
        audit.setPolicy(policy);
      }
      if (nextSimulation !== undefined) {
        simulationSettings = nextSimulation;
        await simulation?.apply(nextSimulation);
      }
      await storage.setSetting(sandboxSettingsSetting, {
        compactionIntervalMs: compactor.interval,
        featureGates: gateState.settings(),
        runtimeConfig: savedRuntimeConfig,
        admission: { ...admissionSettings },
        auditPolicy: auditPolicyText,
        ...(simulationSettings !== undefined ? { simulation: simulationSettings } : {}),
      });
    },
    compact: () => compactor.compactNow(),
    async restartWatchCache() {
      await watchCaches.start();
      return watchCaches.startedAt;
    },
    async reset() {
      await deleteEverything(storage);
      await compactor.compactNow();
      await resyncServiceAllocators();
      // Deletes are commits: the caches (and the CRD registrar) followed them.
      await bootstrapAfterReplace();
    },
    async importState(data, onProgress) {
      compactor.stop();
      try {
        // The cluster CA and the service-account key exist before the settings are replaced, so the ones kept
        // below are this server's.
        await need().caPEM();
        await need().signer();
        await storage.importState(data, onProgress === undefined ? {} : { onProgress });
        // The caches start again on the imported state: a watch from before the import is 410.
        await watchCaches.start();
        // The running server's keys and tokens stay authoritative: an imported state's identity is not adopted.
        await need().save();
        // An import replaces the state without commits: the caches read it again.
        await informers.resync();
        // The state was replaced underneath every open watch: they end with 410 Gone, so clients relist.
        const replaced = resourceExpired('the sandbox state was replaced by an import; list again').status;
        for (const callback of [...shutdownCallbacks]) callback(replaced);
        await applySavedSettings();
        await resyncServiceAllocators();
        await bootstrapAfterReplace();
      } finally {
        compactor.start();
      }
    },
  };

  /**
   * Reads what the server keeps in storage settings (continue-token key, sandbox settings), at start and after an
   * import. At start `startRead` answers them from the start's one read of its settings (`readSettings`).
   */
  async function applySavedSettings(startRead?: SettingReader): Promise<void> {
    const read: SettingReader = startRead ?? ((name) => storage.getSetting(name));
    // Every replica on this store signs and accepts continue tokens with the first key stored.
    const secret = await initialSetting(storage, continueTokenKeySetting, newContinueTokenKey, read);
    tokens = await ContinueTokens.create(new Uint8Array(secret), profile.metaGroup);
    // At start a store that names this profile already is not written again (a write transaction fewer); a
    // fresh one's write goes on beside the reads below (awaited before this returns).
    const profileWritten =
      startRead === undefined || (await startRead(profileSetting)) !== profile.name
        ? storage.setSetting(profileSetting, profile.name)
        : undefined;
    // Reported by the await at the end; until then a failure must not count as unhandled.
    profileWritten?.catch(() => undefined);
    const saved = await read<Partial<SandboxSettings>>(sandboxSettingsSetting);
    await loadYamlForSettings(profile, {
      ...(options.admission === undefined ? { admission: saved?.admission } : {}),
      ...(options.audit?.policy === undefined ? { auditPolicy: saved?.auditPolicy } : {}),
    });
    // Settings saved from the UI apply unless the host was started with explicit ones.
    if (saved?.compactionIntervalMs !== undefined && options.compactionIntervalMs === undefined)
      compactor.setInterval(saved.compactionIntervalMs);
    if (saved?.featureGates !== undefined) gateState.applySaved(saved.featureGates);
    const runtimeConfigBefore = savedRuntimeConfig;
    savedRuntimeConfig = '';
    if (typeof saved?.runtimeConfig === 'string')
      try {
        parseRuntimeConfig(saved.runtimeConfig);
        savedRuntimeConfig = saved.runtimeConfig;
      } catch (e) {
        console.error('saved runtime config ignored', e);
      }
    // At start, a store that saved neither gates nor a runtime config leaves the built-ins as the server was built
    // with them: the reload (which would compute the served versions again to find them unchanged) is skipped.
    if (
      startRead === undefined ||
      saved?.featureGates !== undefined ||
      savedRuntimeConfig !== runtimeConfigBefore
    )
      reloadBuiltIns();
    if (saved?.admission !== undefined && options.admission === undefined) {
      try {
        const savedOptions = admissionOptionsOf(profile, saved.admission);
        await loadAdmissionPlugins(savedOptions);
        storeDeps.admission = createAdmission(savedOptions, admissionDeps);
        admissionSettings = { ...saved.admission };
      } catch (e) {
        console.error('saved admission settings ignored', e);
      }
    }
    if (saved?.auditPolicy !== undefined && options.audit?.policy === undefined) {
      try {
        audit.setPolicy(auditPolicyOf(profile, saved.auditPolicy));
        auditPolicyText = saved.auditPolicy;
      } catch (e) {
        console.error('saved audit policy ignored', e);
      }
    }
    // The clock keeps the time it had (it never goes back: a saved offset behind it is ignored).
    const savedClock = await read<{ offsetMs?: number }>(clockSetting);
    const savedOffset = savedClock?.offsetMs ?? 0;
    if (Number.isFinite(savedOffset) && savedOffset > clock.offsetMs)
      clock.advance(savedOffset - clock.offsetMs);
    if (simulationSettings !== undefined) {
      // The host's flags win over the workshop settings, setting by setting.
      if (saved?.simulation !== undefined) {
        try {
          const next = validateSimulationSettings(profile, { ...saved.simulation, ...simulationFlags });
          simulationSettings = next;
          await simulation?.apply(next);
        } catch (e) {
          console.error('saved simulation settings ignored', e);
        }
      }
      const stopped = await read<string[]>(stoppedNodesSetting);
      stoppedNodes = Array.isArray(stopped) ? stopped.filter((n) => typeof n === 'string') : [];
    }
    await profileWritten;
  }

  /** The allocators take what the stored Services hold (at start, and when the state was replaced underneath). */
  async function resyncServiceAllocators(): Promise<void> {
    const store = installer.storeFor('', 'services');
    if (store === undefined) return;
    // Every Service commit, this replica's or another's on the same store, moves the allocators; those landing
    // while the list is read are replayed after it (in order, so the last version wins).
    stopServiceFollow ??= storage.onCommit((change) => {
      if (!change.key.startsWith(servicesPrefix)) return;
      if (serviceBacklog !== undefined) serviceBacklog.push(change);
      else serviceAllocators.follow(change.type, change.object, change.previous);
    });
    const backlog: ChangeRecord[] = [];
    serviceBacklog = backlog;
    try {
      const listed = await store.objects.list(store.rt, '', {});
      serviceAllocators.resync(listed.items.map((i) => i.object));
    } finally {
      serviceBacklog = undefined;
    }
    for (const change of backlog) serviceAllocators.follow(change.type, change.object, change.previous);
  }

  // Where the `kubernetes` Service's Endpoints point; the port follows what a host advertises.
  let securePort = options.securePort ?? defaultSecurePort;
  const loggedMasterErrors = new Set<string>();
  const reconcileMaster = () =>
    reconcileMasterService(
      installer,
      profile,
      {
        serviceIP: serviceAllocators.primary.firstAddress(),
        advertiseAddress: options.advertiseAddress ?? defaultAdvertiseAddress,
        securePort,
      },
      systemApiserver,
      now(),
      (message) => {
        if (loggedMasterErrors.has(message)) return;
        loggedMasterErrors.add(message);
        console.error(message);
      },
    );
  let stopMasterWatch: (() => void) | undefined;
  let stopSystemNamespaces: (() => void) | undefined;
  const loggedNamespaceErrors = new Set<string>();
  const ensureSystemNamespaces = () =>
    ensureNamespaces(
      installer,
      profile,
      systemNamespaces(profile),
      systemApiserver,
      now(),
      informers.informerFor({ group: '', resource: 'namespaces' }),
    );
  const systemNamespaceFailed = (e: unknown) => {
    const message = `unable to create required ${profile.word} system namespace: ${e instanceof Error ? e.message : String(e)}`;
    if (closing || loggedNamespaceErrors.has(message)) return;
    loggedNamespaceErrors.add(message);
    console.error(message);
  };

  /**
   * As the real post-start hooks do, a start-up write that admission refuses (AlwaysDeny, a webhook) is logged and
   * the server still starts: the learner sees what the plugin does instead of a server that never comes up.
   */
  const refusedByAdmission = (step: string) => (e: unknown) => {
    // Once a namespace was refused, the objects that live in it are refused too (NamespaceLifecycle's 404).
    const refused = e instanceof StatusError && (e.code === 403 || (bootstrapRefused && e.code === 404));
    if (!refused) throw e;
    bootstrapRefused = true;
    console.warn(`${step}: ${e.message}`);
  };

  /**
   * What exists from the start (the namespaces, the default RBAC policy, the sandbox's service account),
   * written again at once after a reset or an import.
   */
  async function bootstrapState(): Promise<void> {
    await bootstrapEssentials();
    await bootstrapPostStart(false);
  }

  /**
   * What a first answer needs: the initial namespaces (the UI lists in them) and the sandbox's service
   * account (the identities list carries its token). The admin is `system:masters` and needs no policy.
   */
  async function bootstrapEssentials(): Promise<void> {
    // The informers say what a fresh store lacks, without a read of the store per object (bootstrap.ts).
    await bootstrap(
      installer,
      profile,
      systemApiserver,
      now(),
      informers.informerFor({ group: '', resource: 'namespaces' }),
    ).catch(refusedByAdmission('unable to create namespaces'));
    await ensureSandboxServiceAccount(
      installer,
      sandboxServiceAccount,
      systemApiserver,
      now(),
      informers.informerFor({ group: '', resource: 'serviceaccounts' }),
    ).catch(refusedByAdmission('unable to create the sandbox service account'));
  }

  /**
   * A new store's essentials without the create path, from the start's first moment (beside its settings and
   * the informers' first lists instead of after them): only where admission could neither refuse nor change
   * them — the store holds no webhook configuration, admission policy or quota yet, and the chain is the
   * default-on plugins' (or fewer) without a configuration file. Resolves false when it did not write them all
   * (the create path then makes what is missing, after the informers, as on any other start).
   */
  async function freshEssentials(created: Promise<boolean>): Promise<boolean> {
    const inert =
      (options.admission?.pluginConfigurations?.size ?? 0) === 0 &&
      storeDeps.admission.names.every((name) => defaultOnPluginNames.has(name));
    if (!inert || !(await created)) return false;
    return createFreshStartupObjects(installer, profile, sandboxServiceAccount, now()).catch(() => false);
  }

  /**
   * The post-start hooks' writes, which run while the server already answers (as the real server's
   * `rbac/bootstrap-roles` and the other hooks do; `/readyz` fails for them until they are done).
   */
  async function bootstrapPostStart(yieldToClients: boolean): Promise<void> {
    // After a reset or an import the request that asked for it is itself in flight: waiting for quiet would
    // hold each of the policy's writes for the whole wait.
    const quiet = yieldToClients ? () => foreground.quiet() : () => Promise.resolve();
    await quiet();
    const postStart = await loadLibrary(postStartLibrary, 'the post-start hooks could not run');
    if (postStart === undefined) return;
    // Their writes reach groups whose definitions the start does not carry (RBAC, APF, PriorityClasses,
    // APIServices) through the storages, not the pipeline that loads them for a request (decision 0134).
    const definitions = await loadLibrary(
      { load: () => loadBuiltInDefinitions().then(() => true) },
      'the post-start hooks could not run',
    );
    if (definitions === undefined) return;
    const { reconcileBootstrapPolicy, ensureStartupObjects } = postStart;
    // A fresh store's cluster CA does not exist yet: cluster-info is written once it does, beside the start
    // (the real API server never writes cluster-info, so no readiness check waits for it).
    const caKnown = advertised?.caPEM !== undefined || need().knownCaPEM() !== undefined;
    const address = caKnown ? await advertisedAddress() : undefined;
    // Once the namespaces exist the rest is independent: written side by side, a fresh store takes the
    // few hundred objects in shared transactions instead of one after another.
    await Promise.all([
      reconcileBootstrapPolicy(installer, informers, profile, systemApiserver, now(), quiet).catch(
        refusedByAdmission('unable to reconcile the bootstrap RBAC policy'),
      ),
      address !== undefined
        ? ensureClusterInfo(installer, profile, address, systemApiserver, now()).catch(
            refusedByAdmission('unable to create the cluster-info ConfigMap'),
          )
        : undefined,
      ensureStartupObjects(loopbackClient(systemApiserver), profile, catalog, now(), () => {
        bootstrapRefused = true;
      }),
      reconcileMaster().catch(refusedByAdmission('unable to create the kubernetes service')),
    ]);
    if (advertised !== undefined && !caKnown) void publishClusterInfoOnceCAExists();
  }

  /**
   * The browser host's post-start writes wait for the page's first screen: its first request answered (at most
   * a second after the server serves, when none comes), then a pause with no request in flight long enough to
   * be the end of its rounds (identities, then discovery and lists), at most a few seconds in all. Each write
   * yields to a request in flight, but its work and its IndexedDB transactions still delay a request that
   * arrives meanwhile (a first list took ~0.5 s beside them).
   */
  async function firstRequestsDone(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([answered, new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
    clearTimeout(timer);
    await foreground.settled(FIRST_SCREEN_PAUSE_MS, FIRST_SCREEN_MAX_WAIT_MS);
  }

  /** cluster-info for a CA created after the start; a failed write (a race with a reset) is tried again. */
  async function publishClusterInfoOnceCAExists(): Promise<void> {
    for (let attempt = 1; !closing; attempt++) {
      try {
        await clusterCAPEM();
        const address = await advertisedAddress();
        if (address === undefined) return;
        await ensureClusterInfo(installer, profile, address, systemApiserver, now()).catch(
          refusedByAdmission('unable to create the cluster-info ConfigMap'),
        );
        return;
      } catch (e) {
        if (closing) return;
        if (attempt >= 5) {
          console.error(
            `unable to create the cluster-info ConfigMap: ${e instanceof Error ? e.message : String(e)}`,
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  /** The connection of the in-process controller-manager's requests. */
  const controllerManagerConnection: ConnectionInfo = {
    trimsManagedFields: true,
    watchEventsAsObjects: true,
    behindClients: true,
  };
  // The clients' requests in flight, which the start-up work beside them lets go first.
  const foreground = new ForegroundRequests();

  /** The simulated cluster's components' connection: in process, reading watch events as objects. */
  const inProcessConnection: ConnectionInfo = { watchEventsAsObjects: true, behindClients: true };

  /**
   * The fetch of the controllers' and the simulated cluster's clients: a list first waits for a pause in the
   * clients' own requests (see `ForegroundRequests.settled`). They share the clients' one thread, where on a
   * separate machine they would not: at 100k objects the garbage collector's start-up lists alone are 200 pages
   * of 500, each taking the thread for a while, and a client's GET behind one of them took 12 ms instead of
   * 2–3 ms in the seconds after a cold start. A list that already began runs on; only the next page waits. Every
   * other request (a write, a GET, a watch) goes at once, so a controller reacts to a change as promptly as
   * before (0106) — except while a page announced as coming loads (a reload), when it waits too (0120).
   */
  const behindClients =
    (conn: ConnectionInfo) =>
    (request: Request): Promise<Response> => {
      const decoded = decodeRequest(request);
      if (decoded.info.verb !== 'list') {
        // While a page is on its way (a reload) every request of theirs waits for its first rounds, at most a
        // second: their timers' and reactions' writes would otherwise fill the navigation's pause.
        const page = foreground.pageLoading();
        if (page === undefined) return handleRequest(deps, request, conn, decoded);
        return page.then(() => handleRequest(deps, request, conn, decoded));
      }
      return foreground
        .settled(BACKGROUND_PAUSE_MS, BACKGROUND_MAX_WAIT_MS)
        .then(() => handleRequest(deps, request, conn, decoded));
    };

  /** A client that calls this server in process as `user` (the real server's loopback client). */
  function loopbackClient(user: UserInfo) {
    const agent = user.username === 'system:apiserver' ? 'apiserver' : 'controller-manager';
    return createClient({
      baseUrl: 'http://orch.internal',
      fetch: (request) => handleRequest(deps, request),
      headers: {
        authorization: `Bearer ${need().staticTokens.mint(user)}`,
        'user-agent': `${profile.shortWord}-${agent}/${serverVersion.gitVersion} (linux/amd64) ${profile.word}/${serverVersion.gitCommit}`,
      },
    });
  }

  /**
   * After a reset or an import the controllers relist and write at once (the ClusterRole aggregation, the
   * namespace controller), racing the start-up objects' writes; a lost race is tried again on the new state.
   */
  async function bootstrapAfterReplace(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await bootstrapWithHealth();
        return;
      } catch (e) {
        if (attempt >= 3) throw e;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  /** bootstrapState, completing its post-start checks once every start-up object was written. */
  async function bootstrapWithHealth(): Promise<void> {
    bootstrapRefused = false;
    await bootstrapState();
    if (!bootstrapRefused) health.complete(...bootstrapHooks);
  }

  async function sandboxServiceAccountUid(): Promise<string | undefined> {
    const { namespace, name } = sandboxServiceAccount;
    return informers.listerFor({ group: '', resource: 'serviceaccounts' }).get(namespace, name)?.metadata
      ?.uid;
  }

  const deps: PipelineDeps = {
    server,
    authenticate: (ctx, conn) => authenticate(need().chain, ctx, conn),
    impersonate: (ctx) => impersonation(authorizer, profile, ctx),
    authorize: (ctx) => {
      // The browser host's sandbox API is the learner's own (reset, import, identities): open to every caller.
      if (options.openSandboxApi === true && ctx.url.pathname.startsWith('/sandbox/')) return undefined;
      if (isPublicIdentityPath(ctx.request.method.toUpperCase(), ctx.url.pathname)) return undefined;
      authorize(authorizer, ctx, profile);
      return undefined;
    },
  };

  // The last-used label of legacy tokens, written through the loopback as the API server's own user.
  const legacyTokenUsed = legacyTokenTracker({
    profile,
    now,
    enabled: () => featureGates.LegacyServiceAccountTokenTracking !== false,
    patch: (namespace, name, body) =>
      handleRequest(
        deps,
        new Request(`http://orch.internal/api/v1/namespaces/${namespace}/secrets/${name}`, {
          method: 'PATCH',
          body,
          headers: {
            authorization: `Bearer ${need().staticTokens.mint(systemApiserver)}`,
            'content-type': 'application/merge-patch+json',
            'user-agent': `${profile.shortWord}-apiserver/${serverVersion.gitVersion} (linux/amd64) ${profile.word}/${serverVersion.gitCommit}`,
          },
        }),
      ),
  });

  const serving = (async () => {
    step('built');
    // The informers made so far (admission's, the CRD registrar's, the namespaces') and the Services' list for
    // the allocators read the store from now on, beside the settings' read and write (IndexedDB runs reads of
    // the other object stores beside them) instead of after them; the identity's informers start as it makes
    // them. `informers.start()` below awaits every one (and starts again one whose first list failed).
    const listing = Promise.all([informers.start(), resyncServiceAllocators()]);
    listing.catch(() => undefined);
    // A store this start's own open created (the browser's first visit) holds nothing: its settings are known
    // missing without a read, and its essentials are written from now on, beside the settings (0109).
    const created = storage.createdByOpen?.().catch(() => false) ?? Promise.resolve(false);
    const essentials = freshEssentials(created);
    essentials.catch(() => undefined);
    // Every setting the start reads, in one read of the store (one IndexedDB transaction instead of one each,
    // in sequence); each is then answered from it once, and read from the store again after that.
    const settingNames = [
      continueTokenKeySetting,
      profileSetting,
      sandboxSettingsSetting,
      clockSetting,
      ...(simulationSettings !== undefined ? [stoppedNodesSetting] : []),
      ...identityStartSettings,
    ];
    const startSettings = (await created)
      ? missingSettings(storage, settingNames)
      : await readSettings(storage, settingNames);
    // What a fresh store lacks (the continue-token key, the identity state, the profile's name) written in one
    // transaction, each keeping a value another replica stored first; the reader then answers them as stored.
    const startRead = await initialSettings(
      storage,
      startSettings,
      { [continueTokenKeySetting]: newContinueTokenKey, ...identityInitialSettings },
      { [profileSetting]: profile.name },
    );
    await applySavedSettings(startRead);
    step('settings');
    identity = await createIdentity({
      profile,
      storage,
      readSetting: startRead,
      informers,
      authentication: options.authentication,
      authorizationModes: (options.authorizationModes ?? ['Node', 'RBAC']) as AuthorizationMode[],
      adminTokens: options.adminTokens ?? [],
      now,
      nowMs: () => clock.nowMs(),
      legacyTokenUsed,
      ...(saTokens.signingKeyPEM !== undefined
        ? { serviceAccountSigningKeyPEM: saTokens.signingKeyPEM }
        : {}),
    });
    step('identity');
    if (clusterCAWanted) void identity.caPEM().catch(() => undefined);
    health.complete('poststarthook/start-kube-apiserver-admission-initializer');
    await Promise.all([informers.start(), listing]);
    health.markInformersSynced();
    health.complete(
      'poststarthook/generic-apiserver-start-informers',
      'poststarthook/storage-object-count-tracker-hook',
    );
    bootstrapRefused = false;
    step('informers');
    if (!(await essentials)) await bootstrapEssentials();
    step('essentials');
    // The watch caches start once the initial namespaces exist, as the real cacher's first list finds them:
    // on a fresh server a watch from resourceVersion 1 is 410 `too old resource version: 1 (<start>)`. The
    // post-start writes below reach them as any later write does.
    await watchCaches.start();
    await crdRegistrar.start();
    health.complete('poststarthook/start-apiextensions-informers', 'poststarthook/crd-informer-synced');
    step('serving');
  })();
  serving.catch(() => undefined);
  // Once serving, a request need not wait for it (a turn of the microtask queue per request).
  let served = false;
  void serving.then(
    () => {
      served = true;
    },
    () => undefined,
  );

  // The controllers and the simulated cluster start once the post-start writes are done: at once (Node, so
  // `ready` means they run), or in the browser once the server answered its first request, so neither their script nor their first
  // lists compete with that answer (a second later at most, when no request comes).
  let firstAnswered: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (firstAnswered = resolve));
  const afterFirstRequests = (async () => {
    await serving;
    if (options.deferPostStart === true) await firstRequestsDone();
  })();
  afterFirstRequests.catch(() => undefined);
  const ready = (async () => {
    await afterFirstRequests;
    // A failed write (a race with a learner's first request or a reset) is tried again, as the real hooks retry.
    for (let attempt = 1; ; attempt++) {
      try {
        await bootstrapPostStart(true);
        break;
      } catch (e) {
        if (attempt >= 3 || closing) throw e;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
    if (!bootstrapRefused) health.complete(...bootstrapHooks);
    stopMasterWatch = watchMasterService(informers, profile, reconcileMaster);
    stopSystemNamespaces = runSystemNamespaces(clock, ensureSystemNamespaces, systemNamespaceFailed);
    compactor.start();
    // Bad signing flags stop the start, as they stop the real controller manager.
    const certificateSigning = await clusterSigningService(profile, options.clusterSigning, () =>
      need().clusterCA(),
    );
    if (options.controllers === false) return defaultAccountsMade();
    if (options.deferControllers === true) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([answered, new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
      clearTimeout(timer);
    }
    // The controllers' first lists take the thread for a while: the clients' requests in flight go first.
    await foreground.quiet();
    const cm = await loadControllerManager();
    if (cm === undefined) return defaultAccountsMade();
    // Each controller calls the API as its own identity, so authorization, admission and audit see who acts.
    const identities = loopbackIdentities(profile);
    // The real binaries' user agents, so managedFields name `kube-controller-manager` (or `kube-apiserver` for
    // the loopback user) as on a real cluster; the profile renames the binary.
    const binary = (part: string) => `${profile.shortWord}-${part}`;
    const userAgent = (user: UserInfo) =>
      `${binary(user.username === 'system:apiserver' ? 'apiserver' : 'controller-manager')}/${serverVersion.gitVersion} (linux/amd64) ${profile.word}/${serverVersion.gitCommit}`;
    const contextFor = (user: UserInfo): ControllerContext => ({
      client: createClient({
        baseUrl: 'http://orch.internal',
        // As kube-controller-manager's informers, this client's keep no managedFields (api/connection.ts).
        fetch: behindClients(controllerManagerConnection),
        headers: {
          authorization: `Bearer ${need().staticTokens.mint(user)}`,
          'user-agent': userAgent(user),
        },
      }),
      profile,
      now,
      clock,
    });
    // The simulated cluster: each component a client as its own identity, with its binary's user agent.
    const clientAs = (user: UserInfo, agent: string) =>
      createClient({
        baseUrl: 'http://orch.internal',
        fetch: behindClients(inProcessConnection),
        headers: {
          authorization: `Bearer ${need().staticTokens.mint(user)}`,
          'user-agent': `${agent}/${serverVersion.gitVersion} (linux/amd64) ${profile.word}/${serverVersion.gitCommit}`,
        },
      });
    if (simulationSettings !== undefined)
      simulation = new cm.Simulation({
        clients: {
          scheduler: clientAs(identities.scheduler, binary('scheduler')),
          // The orch profile's name for the kubelet is the node agent (as in its signer names).
          node: (name) =>
            clientAs(identities.node(name), profile.name === 'kubernetes' ? 'kubelet' : 'node-agent'),
          nodeController: contextFor(identities.nodeController).client,
          podGC: contextFor(identities.podGarbageCollector).client,
          controllerManager: contextFor(identities.kubeControllerManager).client,
          operator: contextFor(systemApiserver).client,
        },
        clock,
        profile,
        kubeletVersion: serverVersion.gitVersion,
        hostname: 'control-plane',
        settings: simulationSettings,
        ...(options.simulation !== undefined && options.simulation !== false
          ? {
              ...(options.simulation.defaultStorageClass === false ? { defaultStorageClass: false } : {}),
              ...(options.simulation.scheduler === false ? { scheduler: false } : {}),
            }
          : {}),
        stoppedNodes,
        onClockAdvance: (listener) => clock.onAdvance(() => listener()),
      });
    // The apiextensions controllers are the API server's own: every replica runs them, as every kube-apiserver does.
    const apiserverControllers = [
      cm.crdNamingController(contextFor(identities.apiextensions)),
      cm.crdEstablishingController(contextFor(identities.apiextensions)),
      cm.crdFinalizer(contextFor(identities.apiextensions)),
      cm.apfConfigurationController(contextFor(systemApiserver)),
      cm.crdAutoregisterController(contextFor(systemApiserver)),
    ];
    controllers.push(...apiserverControllers);
    for (const c of apiserverControllers) c.start();
    health.complete('poststarthook/start-apiextensions-controllers');
    // The controller manager's, a new set for each term of leadership (a stopped controller is not started again).
    const managed: Controller[] = [];
    const startManaged = () => {
      managed.push(...build());
      controllers.push(...managed);
      for (const c of managed) c.start();
    };
    const build = (): Controller[] => [
      cm.namespaceController(contextFor(identities.namespaceController)),
      cm.garbageCollector(contextFor(identities.garbageCollector)),
      cm.clusterRoleAggregationController(contextFor(identities.clusterRoleAggregation)),
      cm.pvcProtectionController(contextFor(identities.pvcProtection)),
      cm.pvProtectionController(contextFor(identities.pvProtection)),
      cm.bootstrapSigner(contextFor(identities.bootstrapSigner)),
      cm.tokenCleaner(contextFor(identities.tokenCleaner)),
      // The controller manager's shared informers list and watch with its own credentials.
      accountsController(),
      cm.rootCAPublisher(
        contextFor(identities.rootCAPublisher),
        contextFor(identities.kubeControllerManager).client,
        { caPEM: clusterCAPEM },
      ),
      cm.serviceAccountTokensController(contextFor(identities.kubeControllerManager), {
        caPEM: clusterCAPEM,
        legacyToken: async (account, secretName) =>
          (await need().signer()).signLegacy(account, { name: secretName }),
      }),
      cm.csrApprovingController(contextFor(identities.certificateController), certificateSigning),
      cm.csrSigningController(contextFor(identities.certificateController), certificateSigning),
      cm.csrCleaner(contextFor(identities.certificateController), certificateSigning),
      ...cm.workloadControllers(
        (account) => contextFor(serviceAccount(profile, account)),
        contextFor(identities.kubeControllerManager).client,
        options.controllerSelection,
      ),
      // The simulated cluster runs where the controller manager runs: one replica at a time.
      ...(simulation !== undefined ? [simulation] : []),
    ];
    /** The serviceaccount controller, whose first pass ends the ServiceAccount plugin's wait (0073). */
    const accountsController = (): Controller => {
      const accounts = cm.serviceAccountController(
        contextFor(identities.serviceAccount),
        contextFor(identities.kubeControllerManager).client,
      );
      void accounts.firstPass().then(defaultAccountsMade);
      return accounts;
    };
    const election = options.leaderElection;
    if (election?.leaderElect === true) {
      // Another replica may hold the lease and make the accounts: nothing here to wait for.
      defaultAccountsMade();
      elector = new cm.LeaderElector({
        client: contextFor(identities.kubeControllerManager).client,
        profile,
        identity: election.identity ?? `sandbox_${crypto.randomUUID()}`,
        ...(election.leaseDurationMs !== undefined ? { leaseDurationMs: election.leaseDurationMs } : {}),
        ...(election.renewDeadlineMs !== undefined ? { renewDeadlineMs: election.renewDeadlineMs } : {}),
        ...(election.retryPeriodMs !== undefined ? { retryPeriodMs: election.retryPeriodMs } : {}),
        ...(election.releaseOnCancel !== undefined ? { releaseOnCancel: election.releaseOnCancel } : {}),
        onStartedLeading: startManaged,
        onStoppedLeading: () => {
          for (const c of managed.splice(0)) {
            c.stop();
            controllers.splice(controllers.indexOf(c), 1);
          }
        },
      });
      elector.start();
    } else startManaged();
  })();
  ready.catch(() => defaultAccountsMade());

  /** The controllers' module; a failed load (offline before the worker cached it) is tried again until it loads. */
  async function loadControllerManager(): Promise<typeof ControllerManager | undefined> {
    return loadLibrary(controllerManagerLibrary, 'the controllers could not start');
  }

  /**
   * A lazy library the start needs, tried again with a growing delay while it cannot be loaded (offline before
   * the shell was cached); undefined once the server closes.
   */
  async function loadLibrary<T>(
    library: Pick<LazyModule<T>, 'load'>,
    failure: string,
  ): Promise<T | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        const loaded = await library.load();
        return closing ? undefined : loaded;
      } catch (e) {
        if (closing) return undefined;
        console.error(`${failure}: ${e instanceof Error ? e.message : String(e)}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 1000 * attempt)));
      }
    }
  }

  /** A request the gate let through has its answer: the gate, the first answer's wait and the foreground end. */
  const requestEnded = (entered: Entry): void => {
    lifecycle.leave(entered);
    firstAnswered();
    // A watch's answer is its headers: the stream that follows is not a request in flight.
    foreground.leave();
  };

  /** `fetch` for a request that waits for the server to serve, or for readiness (the identities list). */
  async function fetchWaiting(
    request: Request,
    conn: ConnectionInfo | undefined,
    decoded: DecodedRequest,
  ): Promise<Response> {
    // The full identities list is for acting as someone (the switcher, lessons, the terminal): identities
    // other than the admin need the default policy, so it is answered once the server is ready. The admin's
    // token (`?certificates=deferred`, the page's first call) needs no policy and is answered at once.
    if (waitsForReadiness(request.method, decoded.url)) await ready.catch(() => undefined);
    const end = foreground.begin();
    try {
      if (!served) await serving;
      const gate = lifecycle.admit(request, decoded);
      if ('response' in gate) return gate.response;
      try {
        return await handleRequest(deps, request, conn, decoded);
      } finally {
        gate.done();
        firstAnswered();
      }
    } finally {
      // A watch's answer is its headers: the stream that follows is not a request in flight.
      end();
    }
  }

  return {
    profile,
    clock,
    serving,
    firstRequestsDone: afterFirstRequests,
    pageComing: () => foreground.pageComing(FIRST_SCREEN_PAUSE_MS, PAGE_COMING_MAX_WAIT_MS),
    ready,
    fetch(request: Request, conn?: ConnectionInfo): Promise<Response> {
      // The host's task that brought the request counts from here for long work's slices
      // (machinery/cooperative.ts). Only a host's arrival is one: an in-process client's request (a controller's,
      // the loopback's) goes to the pipeline directly, often from the middle of a running task, whose start it
      // is not.
      turnArrived();
      // Decoded once, for the readiness check, the gate and the pipeline.
      const decoded = decodeRequest(request);
      if (!served || waitsForReadiness(request.method, decoded.url))
        return fetchWaiting(request, conn, decoded);
      // Serving, and nothing to wait for first: the gate and the pipeline answer without a turn of the microtask
      // queue of their own when every stage finished at once (a GET from memory), as `fetchWaiting` would.
      foreground.enter();
      const entered = lifecycle.enter(request, decoded);
      if (entered instanceof Response) {
        foreground.leave();
        return Promise.resolve(entered);
      }
      const answer = answerRequest(deps, request, conn, decoded);
      if (answer instanceof Response) {
        requestEnded(entered);
        return Promise.resolve(answer);
      }
      return answer.finally(() => requestEnded(entered));
    },
    beginShutdown() {
      lifecycle.beginShutdown();
      health.markShuttingDown();
    },
    stopAcceptingNew: () => lifecycle.stopAcceptingNew(),
    drained: () => lifecycle.drained(),
    compact: () => compactor.compactNow(),
    async controllersIdle() {
      // Started once the server serves (see ready): until then there is nothing they could have queued.
      await ready.catch(() => undefined);
      await Promise.all(controllers.map((c) => c.idle()));
    },
    async close() {
      closing = true;
      defaultAccountsMade();
      // Controllers waiting for a first answer start no more (loadControllerManager sees `closing`).
      firstAnswered();
      // First, while the API still answers: stopping the elector stops its controllers (and releases the lease,
      // when configured to).
      await elector?.stop();
      compactor.stop();
      crdRegistrar.stop();
      stopMasterWatch?.();
      stopSystemNamespaces?.();
      watchCaches.stop();
      watchHub.stop();
      stopServiceFollow?.();
      objectCounter.stop();
      informers.stop();
      for (const c of controllers) c.stop();
      for (const cb of [...shutdownCallbacks]) cb();
      shutdownCallbacks.clear();
      await ready.catch(() => undefined);
      // Audit events and request metrics of the last answers are written before the host goes away.
      flushAfterAnswer();
      await storage.close();
    },
    async identities() {
      await serving;
      return need().identities(await sandboxServiceAccountUid());
    },
    async advertise(url, caPEM) {
      await serving;
      advertised = { url, ...(caPEM !== undefined ? { caPEM } : {}) };
      const address = await advertisedAddress();
      if (address !== undefined)
        await ensureClusterInfo(installer, profile, address, systemApiserver, now()).catch(
          refusedByAdmission('unable to create the cluster-info ConfigMap'),
        );
      // The `kubernetes` Service targets the port the host listens on (unless one was configured).
      const port = URL.canParse(url) ? new URL(url).port : '';
      if (options.securePort === undefined && port !== '' && Number(port) !== securePort) {
        securePort = Number(port);
        await reconcileMaster().catch(refusedByAdmission('unable to create the kubernetes service'));
      }
    },
    async servingCertificate(dnsNames, ipAddresses) {
      await serving;
      return need().servingCertificate(dnsNames, ipAddresses);
    },
    async clientCertificateAuthorities() {
      await serving;
      return need().clientCertificateAuthoritiesPEM();
    },
    prepareClusterCA() {
      clusterCAWanted = true;
      // A failure is not reported here: whoever needs the CA next tries again and reports it.
      if (identity !== undefined) void identity.caPEM().catch(() => undefined);
    },
    prepareServiceAccountKey() {
      // A failure is not reported here: whoever needs the key next tries again and reports it.
      serving.then(() => need().signer()).catch(() => undefined);
    },
  };
}
