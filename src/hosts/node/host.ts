/**
 * The Node host: the server core over HTTPS (`node:https`, through
 * @hono/node-server, which sends response headers before the first body
 * chunk so an idle watch is established at once, and aborts the request
 * when the client goes away). Like the real server it serves TLS only: its
 * certificate is issued by the cluster CA the core keeps with its state
 * (or comes from `--tls-cert-file`/`--tls-private-key-file`); every client
 * is asked for a certificate (the request names the client CAs, as the real
 * server's does) and the chain is handed to the core, which verifies it. `--insecure-http` serves plain HTTP for the few uses where
 * TLS cannot work (there is no such port on a v1.27 server). State lives in
 * memory: by default in the in-memory store (measured 2.4× faster than the
 * same Dexie store over fake-indexeddb, which is in memory too — see
 * docs/decisions/0003), or in the Dexie store with `--storage dexie`, the
 * browser host's own backend.
 */

import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { hostname as machineName } from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { getRequestListener, type HttpBindings, type Http2Bindings } from '@hono/node-server';
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import {
  createApiServer,
  isLongRunningRequest,
  loadBuiltInDefinitions,
  type ApiServer,
  type ApiServerOptions,
} from '../../server/index';
import { loadAdmissionPlugins } from '../../server/admission';
import { nodeScriptRunner } from './script-runner';
import type { ProfileName } from '../../machinery/naming';
import type { AuthenticationConfig } from '../../auth/authn/config';
import { createDexieStorage } from '../../storage/dexie/dexie-storage';
import { createMemoryStorage } from '../../storage/memory/memory-storage';
import { createEtcdStorage } from './etcd/etcd-storage';
import type { EtcdOptions } from './etcd/options';
import type { Storage } from '../../storage/types';
import { writeKubeconfig, type KubeconfigUser } from './kubeconfig';
import { auditLogSinks } from './audit-log';
import { nodeExternalFetch } from './external-fetch';
import { httpsWebhookTransport } from './webhook-https';
import { connectionOf } from './tls';
import {
  answerClientError,
  answeredByTheHost,
  maxHeaderBytes,
  rewriteIncomingTarget,
  statusBody,
} from './raw-target';
import {
  applyConnectionTimeouts,
  realServerTimeouts,
  timeoutServerOptions,
  type ConnectionTimeouts,
} from './connection-timeouts';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { createBenchFloor } from './bench-floor';
import { upgradeListener } from './upgrade';
import type { Socket } from 'node:net';
import { yamlLibrary } from '../../machinery/decode/yaml-library';
import { setTurnScheduler } from '../../machinery/cooperative';

export interface NodeHostOptions {
  port?: number;
  host?: string;
  profile?: ProfileName;
  kubeconfig?: string;
  storage?: 'dexie' | 'memory' | 'etcd';
  /** With `storage: 'dexie'`: the database to open (default a new one per host); a host started again on the same name restarts over its state. */
  dexieDatabase?: string;
  /** `--etcd-servers`, `--etcd-prefix` and the TLS files: required with `storage: 'etcd'`. */
  etcd?: EtcdOptions;
  /** `--etcd-compaction-interval`: with etcd, how often the server compacts etcd (default 5m, 0 disables). */
  etcdCompactionIntervalMs?: number;
  runtimeConfig?: string;
  featureGates?: Record<string, boolean>;
  compactionIntervalMs?: number;
  watchBookmarkIntervalMs?: number;
  /** `--leader-elect` and its timing flags: controllers run in one replica at a time (several hosts on one store). */
  leaderElection?: ApiServerOptions['leaderElection'];
  /** `--controllers`: which of the controller manager's controllers run (see ApiServerOptions). */
  controllerSelection?: string[];
  /** `--tls-cert-file`/`--tls-private-key-file` contents: serve with this certificate (chain) and key. */
  tls?: { certPEM: string; keyPEM: string };
  /** `--insecure-http`: plain HTTP, no client certificates. */
  insecureHttp?: boolean;
  /** The authentication flags, files read (see args.ts); a transport for external calls is added when missing. */
  authentication?: AuthenticationConfig;
  /** `--authorization-mode`; the core's default when unset. */
  authorizationModes?: AuthorizationMode[];
  /** The admission flags (`--enable-admission-plugins`, …, the configuration file already parsed). */
  admission?: ApiServerOptions['admission'];
  admissionFlags?: ApiServerOptions['admissionFlags'];
  /** `--audit-policy-file` (parsed) and `--audit-log-path` (`-`: standard output). */
  audit?: { policy: NonNullable<NonNullable<ApiServerOptions['audit']>['policy']>; logPath?: string };
  /** How webhooks outside the sandbox's own backends are called; default real HTTPS (see webhook-https.ts). */
  webhookTransport?: ApiServerOptions['webhookTransport'];
  /** `--service-account-signing-key-file` (read), `--service-account-max-token-expiration`, `--service-account-extend-token-expiration`, `--service-account-jwks-uri`. */
  serviceAccountTokens?: ApiServerOptions['serviceAccountTokens'];
  /** `--cluster-signing-cert-file`/`--cluster-signing-key-file` (read), the per-signer pairs, `--cluster-signing-duration`. */
  clusterSigning?: ApiServerOptions['clusterSigning'];
  /** The server's clock (tests inject one to move time, e.g. for the CSR cleaner); default the system clock. */
  now?: () => Date;
  /** `--service-cluster-ip-range`, `--service-node-port-range` (validated by args.ts), `--advertise-address`. */
  serviceClusterIPRange?: string;
  serviceNodePortRange?: string;
  advertiseAddress?: string;
  /** `--livez-grace-period`. */
  livezGracePeriodMs?: number;
  /** `--shutdown-delay-duration`: how long `shutdown()` keeps serving (readyz failing) before it stops accepting. */
  shutdownDelayMs?: number;
  /** `--shutdown-send-retry-after`. */
  shutdownSendRetryAfter?: boolean;
  /** `--show-hidden-metrics-for-version`. */
  showHiddenMetricsForVersion?: string;
  /** The simulated cluster: `--nodes`, `--node-capacity`, `--node-labels`, `--simulation-speed`; false: none. */
  simulation?: ApiServerOptions['simulation'];
  /** Benches only: answer requests carrying `x-bench-floor: 1` with a trivial handler (see bench-floor.ts). */
  benchFloor?: boolean;
  /** Idle, header and request deadlines (default the real server's; tests shorten them). */
  connectionTimeouts?: Partial<ConnectionTimeouts>;
}

/** A mode `--authorization-mode` may name that the core implements. */
export type AuthorizationMode = NonNullable<ApiServerOptions['authorizationModes']>[number];

/** A built-in identity of the core (admin by token and by certificate, alice, a service account). */
export type HostIdentity = Awaited<ReturnType<ApiServer['identities']>>[number];

export interface NodeHost {
  url: string;
  port: number;
  /** The administrator bearer token (also in the kubeconfig). */
  token: string;
  /** PEM of the CA clients trust the server with (the cluster CA, or the top of `--tls-cert-file`); absent over plain HTTP. */
  caPEM?: string;
  /** The built-in identities (also in the kubeconfig). */
  identities: HostIdentity[];
  api: ApiServer;
  /** The host's store, for tests that read the change history (the fuzzer's no-change check). */
  storage: Storage;
  close(): Promise<void>;
  /**
   * Graceful termination, as the real server runs it on SIGTERM: `/readyz` fails at once, serving goes on for
   * the shutdown delay, then new requests are refused (the listener closes, or with `shutdownSendRetryAfter`
   * stays open answering 429 until the drain), in-flight requests finish, watches are closed, and the host closes.
   */
  shutdown(): Promise<void>;
}

let dbCounter = 0;

/**
 * Header values carrying UTF-8 bytes (a warning about a field named `名前`)
 * are byte strings whose code units are those bytes. Node writes the head
 * in the body's encoding when the body is a string, which would encode the
 * bytes a second time; with a byte body the head is written as Latin-1,
 * i.e. as the very bytes the server meant. Streams are left alone.
 */
async function bytesBodyForRawHeaders(response: Response): Promise<Response> {
  let raw = false;
  // eslint-disable-next-line no-control-regex
  response.headers.forEach((value) => (raw ||= /[^\u0000-\u007f]/.test(value)));
  // Watches (`;stream=watch`) never end: they keep their stream.
  if (!raw || response.body === null || (response.headers.get('content-type') ?? '').includes('stream'))
    return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  return new Response(bytes, { status: response.status, headers: response.headers });
}

async function makeStorage(options: NodeHostOptions, profile: ProfileName): Promise<Storage> {
  const kind = options.storage ?? 'memory';
  if (kind === 'etcd') {
    if (options.etcd === undefined) throw new Error('--etcd-servers must be specified');
    return createEtcdStorage(options.etcd);
  }
  if (kind === 'memory') return createMemoryStorage();
  // One in-memory database per host instance, so several hosts in one process stay apart.
  return createDexieStorage({
    name: options.dexieDatabase ?? `orch-sandbox-${profile}-${process.pid}-${++dbCounter}`,
    indexedDB,
    IDBKeyRange,
  });
}

const unspecified = new Set(['0.0.0.0', '::', '']);

/** The names and addresses the serving certificate covers: loopback, this machine, and the bind address. */
function servingNames(bind: string): { hostnames: string[]; ips: string[] } {
  const hostnames = ['localhost', machineName()];
  const ips = ['127.0.0.1', '::1'];
  if (isIP(bind) !== 0) {
    if (!unspecified.has(bind) && !ips.includes(bind)) ips.push(bind);
  } else if (!hostnames.includes(bind)) hostnames.push(bind);
  return { hostnames, ips };
}

/** The last certificate of a PEM bundle: the top of a `--tls-cert-file` chain, the one clients must trust. */
function lastCertificate(bundle: string): string | undefined {
  const blocks = bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  return blocks === null ? undefined : `${blocks[blocks.length - 1]}\n`;
}

/**
 * A long-running response's writes leave at most twice per turn of the
 * event loop. The first write of a turn leaves at once: Node corks the
 * socket of a chunked response on each write and uncorks it on the next
 * tick, and a watch event is written while the write that caused it is
 * still being handled, whose remaining work (its own response included)
 * all runs before that tick, so the event would reach its watchers after
 * the writer's response. What the same turn writes after it (a watch's
 * backlog: the changes committed while the fan-out paused, which it hands
 * over together) is left to Node's cork and leaves as one socket write —
 * one TLS record and one system call — not one per event: with a thousand
 * watchers, those writes were the server's largest cost.
 */
function firstWriteOfEachTurnAtOnce(outgoing: ServerResponse): void {
  const write = outgoing.write.bind(outgoing) as (...args: unknown[]) => boolean;
  let wroteThisTurn = false;
  const endTurn = (): void => {
    wroteThisTurn = false;
  };
  const writeInTurn = (...args: unknown[]): boolean => {
    if (wroteThisTurn) return write(...args);
    wroteThisTurn = true;
    setImmediate(endTurn);
    const ok = write(...args);
    outgoing.socket?.uncork();
    return ok;
  };
  outgoing.write = writeInTurn as ServerResponse['write'];
}

export async function startNodeHost(options: NodeHostOptions = {}): Promise<NodeHost> {
  // Long work's pauses (machinery/cooperative.ts) wait for a turn in which the loop has read its sockets.
  setTurnScheduler(setImmediate);
  const profile = options.profile ?? 'orch';
  const bind = options.host ?? '127.0.0.1';
  const token = randomBytes(24).toString('base64url');
  const storage = await makeStorage(options, profile);
  const authentication: AuthenticationConfig | undefined =
    options.authentication === undefined
      ? undefined
      : { ...options.authentication, fetch: options.authentication.fetch ?? nodeExternalFetch() };
  const scriptRunner = nodeScriptRunner();
  // The real controller manager elects a leader unless told not to. On etcd, which several replicas may share,
  // so does this host; the single-process stores have no other replica to elect against (`--leader-elect`).
  const leaderElection =
    options.leaderElection ?? (options.storage === 'etcd' ? { leaderElect: true } : undefined);
  const apiOptions: ApiServerOptions = {
    storage,
    profile,
    adminTokens: [token],
    runtimeConfig: options.runtimeConfig,
    featureGates: options.featureGates,
    // On etcd the server's compactor compacts etcd, every --etcd-compaction-interval (the real server's default 5m).
    compactionIntervalMs:
      options.storage === 'etcd'
        ? (options.etcdCompactionIntervalMs ?? options.compactionIntervalMs)
        : options.compactionIntervalMs,
    watchBookmarkIntervalMs: options.watchBookmarkIntervalMs,
    ...(authentication !== undefined ? { authentication } : {}),
    ...(options.authorizationModes !== undefined ? { authorizationModes: options.authorizationModes } : {}),
    ...(options.admission !== undefined ? { admission: options.admission } : {}),
    ...(options.audit !== undefined
      ? { audit: { policy: options.audit.policy, sinks: auditLogSinks(options.audit.logPath) } }
      : {}),
    ...(options.admissionFlags !== undefined ? { admissionFlags: options.admissionFlags } : {}),
    ...(options.serviceAccountTokens !== undefined
      ? { serviceAccountTokens: options.serviceAccountTokens }
      : {}),
    ...(options.clusterSigning !== undefined ? { clusterSigning: options.clusterSigning } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(options.serviceClusterIPRange !== undefined
      ? { serviceClusterIPRange: options.serviceClusterIPRange }
      : {}),
    ...(options.serviceNodePortRange !== undefined
      ? { serviceNodePortRange: options.serviceNodePortRange }
      : {}),
    ...(options.advertiseAddress !== undefined ? { advertiseAddress: options.advertiseAddress } : {}),
    ...(options.livezGracePeriodMs !== undefined ? { livezGracePeriodMs: options.livezGracePeriodMs } : {}),
    ...(options.shutdownSendRetryAfter !== undefined
      ? { shutdownSendRetryAfter: options.shutdownSendRetryAfter }
      : {}),
    ...(options.showHiddenMetricsForVersion !== undefined
      ? { showHiddenMetricsForVersion: options.showHiddenMetricsForVersion }
      : {}),
    // The real controller manager's holder identity: `<hostname>_<uuid>`.
    ...(leaderElection !== undefined
      ? { leaderElection: { identity: `${machineName()}_${randomUUID()}`, ...leaderElection } }
      : {}),
    ...(options.controllerSelection !== undefined
      ? { controllerSelection: options.controllerSelection }
      : {}),
    webhookTransport: options.webhookTransport ?? httpsWebhookTransport,
    scriptRunner,
    ...(options.simulation !== undefined ? { simulation: options.simulation } : {}),
  };
  // Plugins read the kubeconfig files their configurations name (YAML) as the chain is built, synchronously.
  if ((options.admission?.pluginConfigurations?.size ?? 0) > 0) await yamlLibrary.load();
  // The plugins the flags enable that are off by default (a lazy script): loaded first, so a bad configuration
  // refuses the start as the real server's does.
  await loadAdmissionPlugins(options.admission ?? {});
  // Every group's definitions before the first request, as the tests have them (a module import here, not a
  // fetch): only the worker's first visit gains from the other groups' arriving later (0134).
  await loadBuiltInDefinitions();
  const api = createApiServer(apiOptions);
  await api.ready;

  let tls: { certPEM: string; keyPEM: string; caPEM: string | undefined } | undefined;
  // The CAs the handshake names to clients as acceptable issuers of their certificate.
  let clientCAs: string | undefined;
  if (options.insecureHttp !== true) {
    if (options.tls !== undefined) tls = { ...options.tls, caPEM: lastCertificate(options.tls.certPEM) };
    else {
      const names = servingNames(bind);
      tls = await api.servingCertificate(names.hostnames, names.ips);
    }
    clientCAs = await api.clientCertificateAuthorities();
  }

  const floor = options.benchFloor === true ? createBenchFloor() : undefined;
  const listener = getRequestListener(
    (request: Request, env: HttpBindings | Http2Bindings) =>
      floor?.matches(request) === true
        ? floor.fetch(request)
        : api
            .fetch(request, connectionOf(env.incoming as IncomingMessage))
            // The host answered a request whose body failed to arrive (raw-target.ts): the server's answer is dropped.
            .then((r) =>
              answeredByTheHost(env.outgoing as ServerResponse)
                ? RESPONSE_ALREADY_SENT
                : bytesBodyForRawHeaders(r),
            ),
    {
      hostname: bind,
      // The adapter could not build a Request (a Host header it refuses): 400 as a Status, like every other error.
      errorHandler: (error: unknown) =>
        new Response(statusBody(400, 'BadRequest', error instanceof Error ? error.message : String(error)), {
          status: 400,
          headers: { 'Content-Type': 'application/json' },
        }),
    },
  );
  const longRunning = (incoming: IncomingMessage): boolean => {
    // Most requests name none of the long-running words (nor an escape that could spell one): no parse for them.
    if (!/watch|proxy|attach|exec|log|portforward|%/i.test(incoming.url ?? '')) return false;
    try {
      return isLongRunningRequest(incoming.method ?? 'GET', new URL(incoming.url ?? '/', 'http://host'));
    } catch {
      // A target no URL parses is answered 400 at once.
      return false;
    }
  };
  // Responses of non-long-running requests still being written: a graceful shutdown lets them finish.
  const writing = new Set<Promise<void>>();
  const handle = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    if (!longRunning(incoming)) {
      const written = new Promise<void>((resolve) => outgoing.once('close', () => resolve()));
      writing.add(written);
      void written.then(() => writing.delete(written));
    } else firstWriteOfEachTurnAtOnce(outgoing);
    rewriteIncomingTarget(incoming);
    void listener(incoming, outgoing);
  };
  const timeouts: ConnectionTimeouts = { ...realServerTimeouts, ...options.connectionTimeouts };
  const server =
    tls === undefined
      ? createHttpServer(
          { maxHeaderSize: maxHeaderBytes, noDelay: true, ...timeoutServerOptions(timeouts) },
          handle,
        )
      : createHttpsServer(
          {
            maxHeaderSize: maxHeaderBytes,
            ...timeoutServerOptions(timeouts),
            // No Nagle delay on small writes (a watch event is one); Node's default, said out loud.
            noDelay: true,
            cert: tls.certPEM,
            key: tls.keyPEM,
            // Ask for a client certificate, accept any: the core verifies it against its configured CAs.
            // `ca` is only the certificate request's list of acceptable CA names here, which the real
            // server sends too (its ClientCAs); a client that sends a certificate from another CA anyway
            // (client-go always does) gets the core's 401 (decision 0128).
            requestCert: true,
            rejectUnauthorized: false,
            ...(clientCAs !== undefined && clientCAs !== '' ? { ca: clientCAs } : {}),
          },
          handle,
        );
  applyConnectionTimeouts(server, timeouts);
  server.on('clientError', answerClientError);
  // Exec streams (SPDY, WebSocket) leave the HTTP server once upgraded: they are closed with the host.
  const upgraded = new Set<Socket>();
  server.on('upgrade', upgradeListener(api, upgraded));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bind, () => resolve());
  });
  const address = server.address() as AddressInfo;
  // A wildcard bind is reached through loopback; the certificate covers it.
  const reachable =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const hostForUrl = isIP(reachable) === 6 ? `[${reachable}]` : reachable;
  const url = `${tls === undefined ? 'http' : 'https'}://${hostForUrl}:${address.port}`;
  // Published in the public cluster-info ConfigMap, as kubeadm publishes the control plane's endpoint.
  await api.advertise(url, tls?.caPEM);

  const identities: HostIdentity[] = await api.identities();
  if (!identities.some((i) => i.name === 'admin'))
    identities.unshift({ name: 'admin', username: 'system:admin', groups: ['system:masters'], token });
  if (options.kubeconfig !== undefined) {
    const users: KubeconfigUser[] = identities.map((i) => ({
      name: i.name,
      ...(i.token !== undefined ? { token: i.token } : {}),
      ...(i.clientCertificatePEM !== undefined ? { clientCertificatePEM: i.clientCertificatePEM } : {}),
      ...(i.clientKeyPEM !== undefined ? { clientKeyPEM: i.clientKeyPEM } : {}),
    }));
    await writeKubeconfig(options.kubeconfig, {
      server: url,
      ...(tls?.caPEM !== undefined ? { caPEM: tls.caPEM } : {}),
      users,
      current: 'admin',
    });
  }
  let closing: Promise<void> | undefined;
  let shuttingDown: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open watches end when the server closes; idle keep-alive sockets go now.
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
        void api.close();
      });
      await api.close();
      await scriptRunner.close();
    })();
    return closing;
  };
  return {
    url,
    port: address.port,
    token,
    ...(tls?.caPEM !== undefined ? { caPEM: tls.caPEM } : {}),
    identities,
    api,
    storage,
    close,
    shutdown() {
      shuttingDown ??= (async () => {
        api.beginShutdown();
        await new Promise((resolve) => setTimeout(resolve, options.shutdownDelayMs ?? 0));
        api.stopAcceptingNew();
        // Without --shutdown-send-retry-after the listener closes now; requests on open connections get 503.
        if (options.shutdownSendRetryAfter !== true) {
          server.close();
          server.closeIdleConnections();
        }
        await api.drained();
        await Promise.all([...writing]);
        await close();
      })();
      return shuttingDown;
    },
  };
}
