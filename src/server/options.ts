/**
 * Settings of one API server instance. Hosts build these from their command
 * line or UI settings; everything has the real server's default.
 */

import type { ProfileName } from '../machinery/naming';
import type { Storage } from '../storage/types';
import type { AuthenticationConfig } from '../auth/authn/config';
import type { AdmissionOptions } from '../admission/build';
import type { AuditPolicy } from '../audit/policy';
import type { AuditSink } from '../audit/log';
import type { AdmissionFlags } from '../admission/types';
import type { WebhookTransport } from '../admission/webhook-transport';
import type { ScriptRunner } from '../admission/backends/types';
import type { SimulationSettings } from '../simulation/settings';

/** A signing CA given as files: certificate and PKCS#8 key, PEM, with the paths for messages. */
export interface SigningFiles {
  certPEM: string;
  keyPEM: string;
  certFile: string;
  keyFile: string;
}

export interface ClusterSigningOptions {
  /** `--cluster-signing-cert-file` and `--cluster-signing-key-file`. */
  default?: SigningFiles;
  /** `--cluster-signing-{kubelet-serving,kubelet-client,kube-apiserver-client,legacy-unknown}-{cert,key}-file`. */
  signers?: Partial<
    Record<'kubeletServing' | 'kubeletClient' | 'kubeApiserverClient' | 'legacyUnknown', SigningFiles>
  >;
  /** `--cluster-signing-duration` in milliseconds. */
  durationMs?: number;
}

export interface ApiServerOptions {
  /** Where state lives; the server owns it from now on (close() closes it). */
  storage: Storage;
  /** Naming profile; default `orch`. */
  profile?: ProfileName;
  /** Source of the current time; default the system clock. */
  now?: () => Date;
  /** `--runtime-config`: comma-separated `<group>/<version>[=true|false]` entries. */
  runtimeConfig?: string;
  /** `--feature-gates` as a map, e.g. `{ WatchList: true }`. */
  featureGates?: Record<string, boolean>;
  /** How often the change history is compacted, in milliseconds; default 5 minutes. */
  compactionIntervalMs?: number;
  /** Bearer tokens honoured as a cluster administrator (the host's kubeconfig token). */
  adminTokens?: string[];
  /** Authentication as the real server's flags configure it (client CA, token file, service accounts, OIDC, webhook, front proxy, anonymous). */
  authentication?: AuthenticationConfig;
  /** `--authorization-mode`, in order; default Node, RBAC. */
  authorizationModes?: ('AlwaysAllow' | 'AlwaysDeny' | 'Node' | 'RBAC')[];
  /** The sandbox API (`/sandbox/…`) is open to every caller — the browser host, where the sandbox is the learner's own. Default false: authorized like any non-resource URL. */
  openSandboxApi?: boolean;
  /** Interval of periodic watch bookmarks; default 1 minute. */
  watchBookmarkIntervalMs?: number;
  /** Run the in-server controllers (namespace lifecycle, garbage collector); default true. */
  controllers?: boolean;
  /**
   * Start the controllers and the simulated cluster once the first request was answered (or a second after the
   * server serves, when none comes) instead of as soon as it serves, and load their code then: the browser host,
   * whose first answer should not share the worker's thread with them. `ready` resolves once they started;
   * `serving` does not wait for them. Default false.
   */
  deferControllers?: boolean;
  /**
   * Hold the post-start writes (the default RBAC policy, the start-up objects; `/readyz` fails until they are
   * done) until the first request was answered and the clients paused for a moment: the browser host, whose
   * page's first screen should have the worker's thread and the store to itself. Default false: they start as
   * soon as the server serves, beside its first answers.
   */
  deferPostStart?: boolean;
  /**
   * Told of each step of the start as it is reached (`built`, `settings`, `identity`, `informers`,
   * `essentials`, `serving`): the browser host marks them on the worker's performance timeline, where the
   * first-visit bench reads them. Cheap; default none.
   */
  startStep?: (step: string) => void;
  /**
   * The simulated cluster around the server — scheduler, node agents, node lifecycle controller, pod GC (see
   * simulation/). Settings given here (the host's flags) win over the workshop settings; `false`: none, the
   * server alone. Runs with the controller manager's controllers (and not when `controllers` is false).
   * `defaultStorageClass` (default true): whether its start makes the default StorageClass `standard`, as a
   * cluster installer does (kind, minikube); false leaves the classes to the user, as a bare kube-apiserver and
   * controller manager do (decision 0130). `scheduler` (default true): whether the scheduler runs; false leaves
   * pods unscheduled unless they name a node, as a control plane without kube-scheduler (decision 0131).
   */
  simulation?:
    false | { settings?: Partial<SimulationSettings>; defaultStorageClass?: boolean; scheduler?: boolean };
  /**
   * The controller manager's `--controllers`: `*` for every controller on by default, `name` to enable one,
   * `-name` to disable one (default `['*']`). Applies to the workload controllers.
   */
  controllerSelection?: string[];
  /** `--livez-grace-period`: `/livez` passes its post-start checks this long after construction; default 0. */
  livezGracePeriodMs?: number;
  /** `--shutdown-send-retry-after`: during shutdown refuse new requests with 429 until the drain (see lifecycle.ts). */
  shutdownSendRetryAfter?: boolean;
  /** `--show-hidden-metrics-for-version` (the previous minor, validated by the host). */
  showHiddenMetricsForVersion?: string;
  /**
   * Watches get a commit in a later turn, after the writer's answer, instead of inside the commit (the browser
   * host: a sequential writer's next request then does not wait for the watches' encoding and their in-process
   * clients' decoding). Default false: the Node host writes watch frames inside the commit, for its watch latency.
   * With it, the in-process controllers' and simulated cluster's watches get their changes once the clients'
   * requests pause (at most ~100 ms later), as their lists wait (decisions 0106, 0111).
   */
  watchesAfterAnswer?: boolean;
  /**
   * A GET answered from kept text (http/handlers/get-from-memory.ts) sends a `Blob` of it made once, not the
   * string (the browser host: a service worker's answer made from a string registers its bytes with the browser
   * as a new blob on every answer; a kept `Blob` is registered once and handed over as it is). Default false:
   * Node writes a string to its socket directly.
   */
  keptAnswersAsBlobs?: boolean;
  /** Reads the store for the `etcd` health check; default a read of one key. Tests inject a failing one. */
  storeProbe?: () => Promise<unknown>;
  /**
   * `--leader-elect` and its timings: the controller manager's controllers run only while this replica holds its
   * Lease (several replicas over one store); the API server's own CRD controllers run in every replica. Unset or
   * `leaderElect: false`: all run at once, unconditionally.
   */
  leaderElection?: {
    leaderElect: boolean;
    /** `--leader-elect-lease-duration` (default 15s), `--leader-elect-renew-deadline` (10s), `--leader-elect-retry-period` (2s). */
    leaseDurationMs?: number;
    renewDeadlineMs?: number;
    retryPeriodMs?: number;
    /** The holder identity; default `<hostname>_<uuid>` with the host's name, or `sandbox_<uuid>`. */
    identity?: string;
    /** Give the lease up on close so another replica takes over at once (the real controller manager does not). */
    releaseOnCancel?: boolean;
  };
  /**
   * The controller manager's certificate signing flags: `--cluster-signing-cert-file`/`--cluster-signing-key-file`
   * contents (default: the cluster CA the server keeps), the per-signer pairs, `--cluster-signing-duration` (default 8760h).
   */
  clusterSigning?: ClusterSigningOptions;
  /** `--enable-admission-plugins`, `--disable-admission-plugins` and the plugins' configurations. */
  admission?: AdmissionOptions;
  /** `--default-not-ready-toleration-seconds`, `--default-unreachable-toleration-seconds`; default 300 each. */
  admissionFlags?: Partial<AdmissionFlags>;
  /** How webhooks are reached (the Node host adds real HTTPS); default: nothing outside the sandbox's own backends. */
  webhookTransport?: WebhookTransport;
  /** Runs the JavaScript webhook backends a learner declares, isolated and under the call's timeout; default: none (such calls fail as unreachable). */
  scriptRunner?: ScriptRunner;
  /** `--audit-policy-file` (parsed) and where events go besides the sandbox's live log (`--audit-log-path`). No policy: nothing is audited. */
  audit?: { policy?: AuditPolicy; sinks?: AuditSink[] };
  /**
   * The address clients reach this server at, published in the public `cluster-info` ConfigMap with the cluster CA
   * (a host that learns its address only once listening calls `ApiServer.advertise` instead). Unset: no cluster-info
   * until a host advertises one.
   */
  advertisedURL?: string;
  /**
   * The service-account tokens the server mints and publishes: `--service-account-signing-key-file` (contents; default
   * the key generated and kept with the state), `--service-account-max-token-expiration` (seconds; 0 or unset: none),
   * `--service-account-extend-token-expiration` (default true), `--service-account-jwks-uri` (default the JWKS path at
   * the address a client reached).
   */
  serviceAccountTokens?: {
    signingKeyPEM?: string;
    maxExpirationSeconds?: number;
    extendExpiration?: boolean;
    jwksURI?: string;
  };
  /**
   * The audit policy document used when neither `audit.policy` nor saved workshop settings give one (the browser
   * host's live view). The browser's default text is read from its data; any other text is YAML, parsed while the
   * server is created, so its host loads the YAML library first (`yamlLibrary.load()`).
   */
  defaultAuditPolicy?: string;
  /** `--service-cluster-ip-range`: one CIDR or two of different families; default `10.0.0.0/24` as v1.27. */
  serviceClusterIPRange?: string;
  /** `--service-node-port-range`, e.g. `30000-32767` (the default). */
  serviceNodePortRange?: string;
  /**
   * `--advertise-address`: where the `kubernetes` Endpoints and EndpointSlice point; default a fixed non-loopback
   * sandbox address, 192.168.49.2 (a loopback one is refused by Endpoints validation, as on the real server).
   */
  advertiseAddress?: string;
  /** The port the `kubernetes` Service targets; default 6443, or the port of the URL a host advertises. */
  securePort?: number;
}
