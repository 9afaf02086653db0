/**
 * Command-line flags of `npm run serve`, parsed the way the real
 * kube-apiserver's flag library (spf13/pflag) parses them, so a command
 * line written for a v1.27 kube-apiserver means the same thing here:
 * `--name=value` or `--name value`, booleans as `--name` or `--name=false`
 * (never consuming the next word), comma-separated lists that also repeat,
 * Go durations (`5m`, `30s`, `1h30m`, `250ms`). Bad values fail with the
 * real server's messages (`invalid argument "x" for "--flag" flag: ...`,
 * validation errors such as `oidc-issuer-url and oidc-client-id should be
 * specified together`), which `main.ts` prints after `Error: ` and answers
 * with exit code 1, as `kube-apiserver` does. Files the authentication
 * flags name are read here and handed to the core as contents.
 */

import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, isAbsolute, join, resolve } from 'node:path';
// Flags are parsed synchronously: the Node host imports the YAML package itself (the core loads it lazily).
import { parse as parseYaml } from 'yaml';
import { namingProfile } from '../../machinery/naming';
import {
  AdmissionConfigError,
  parseAdmissionConfiguration,
  validateAdmissionOptions,
  type AdmissionOptions,
} from '../../server/admission';
import { AuditPolicyError, parseAuditPolicy } from '../../server/audit';
import { isProfileName } from '../../machinery/naming';
import type { AuthenticationConfig } from '../../auth/authn/config';
import type { AuthorizationMode, NodeHostOptions } from './host';
import { clusterSigningFlagKinds, clusterSigningOf } from './cluster-signing-args';
import { parseEtcdServers } from './etcd/options';
import { serviceAccountTokenFlagKinds, serviceAccountTokensOf } from './service-account-args';
import { formatGoDuration, parseGoDuration } from '../../machinery/go-duration';
import { parsePortRange, parseServiceClusterIPRanges } from '../../machinery/service-ranges';
import {
  parseLabelList,
  serverVersion,
  SettingsError,
  showHiddenMetricsError,
  validateSimulationSettings,
  type SimulationSettings,
} from '../../server/index';
import {
  checkFeatureGates,
  FeatureGateError,
  goParseBool,
  knownFeatureLines,
  parseFeatureGateText,
} from '../../machinery/feature-gates';
import { kindOf, type FlagKind, type FlagSpec } from './flag-help';

/** A bad command line: the message is the real server's, printed after `Error: `. */
export class FlagError extends Error {}

/** `--help` or `-h` was given (and every other flag parsed): main prints the help and exits 0. */
export class HelpRequested extends Error {}

/**
 * A failure after the flags parsed, when the real server has its logging up:
 * main prints it as klog's `"command failed" err="..."` line, exit code 1.
 */
export class CommandFailed extends Error {}

/**
 * Each `--feature-gates` occurrence in order, as component-base's feature gate
 * takes them (see machinery/feature-gates.ts); warnings for GA and deprecated gates.
 */
export function parseFeatureGates(
  occurrences: readonly string[],
  warn: (message: string) => void = () => undefined,
): Record<string, boolean> {
  const gates: Record<string, boolean> = {};
  for (const text of occurrences) {
    try {
      const pairs = parseFeatureGateText(text);
      for (const warning of checkFeatureGates(pairs)) warn(warning);
      for (const [name, value] of pairs) gates[name] = value;
    } catch (e) {
      if (e instanceof FeatureGateError) throw invalid('feature-gates', text, e.message);
      throw e;
    }
  }
  return gates;
}

/** A flag's declaration: its pflag parsing kind, and what `--help` prints for it. */
type FlagDecl = FlagKind | FlagSpec;

/**
 * Every flag the host knows. An entry is its parsing kind alone (printed by
 * `--help` with no usage text), or a FlagSpec with the usage, the default
 * `--help` shows, the type name pflag prints and the help section.
 */
const flagKinds = {
  // Serving (the real names, plus the sandbox's older `--port`/`--host` spellings).
  port: {
    kind: 'string',
    type: 'int',
    section: 'sandbox',
    usage: 'The port to serve on (0 picks a free port); same as --secure-port.',
  },
  host: {
    kind: 'string',
    section: 'sandbox',
    usage: 'The address to listen on; same as --bind-address.',
    default: '127.0.0.1',
  },
  'secure-port': {
    kind: 'string',
    type: 'int',
    section: 'secure serving',
    usage:
      'The port on which to serve HTTPS with authentication and authorization. It cannot be switched off with 0.',
    default: '6443',
  },
  'bind-address': {
    kind: 'string',
    type: 'ip',
    section: 'secure serving',
    usage: 'The IP address on which to listen for the --secure-port port.',
    default: '127.0.0.1',
  },
  'tls-cert-file': {
    kind: 'string',
    section: 'secure serving',
    usage:
      'File containing the x509 certificate for HTTPS (CA cert, if any, concatenated after server cert). Without it a certificate issued by the cluster CA is served.',
  },
  'tls-private-key-file': {
    kind: 'string',
    section: 'secure serving',
    usage: 'File containing the x509 private key matching --tls-cert-file.',
  },
  'insecure-http': {
    kind: 'bool',
    section: 'sandbox',
    usage: 'Serve plain HTTP instead of HTTPS (for local experiments only).',
  },
  // Sandbox settings.
  profile: {
    kind: 'string',
    section: 'sandbox',
    usage: 'The naming profile: orch (orch.io group names) or kubernetes (the upstream names).',
    default: 'orch',
  },
  kubeconfig: {
    kind: 'string',
    section: 'sandbox',
    usage: 'Write a kubeconfig for the admin user of this server to this path once it listens.',
  },
  storage: {
    kind: 'string',
    section: 'sandbox',
    usage: 'Where the state is kept: memory, dexie or etcd.',
    default: 'memory',
  },
  'runtime-config': {
    kind: 'string',
    type: 'mapStringString',
    section: 'api enablement',
    usage:
      'A set of key=value pairs that enable or disable built-in APIs. Supported options are:\nv1=true|false for the core API group\n<group>/<version>=true|false for a specific API group and version (e.g. apps/v1=true)\napi/all=true|false controls all API versions\napi/ga=true|false controls all API versions of the form v[0-9]+\napi/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+\napi/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+\napi/legacy is deprecated, and will be removed in a future version',
  },
  'feature-gates': {
    kind: 'mapStringBool',
    type: 'mapStringBool',
    section: 'generic',
    usage: `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${knownFeatureLines().join('\n')}`,
  },
  'compaction-interval': {
    kind: 'string',
    type: 'duration',
    section: 'sandbox',
    usage:
      'How long the change history is kept before it is compacted (watches from older versions get 410 Gone).',
    default: '5m0s',
  },
  // etcd (the real server's storage flags).
  'etcd-servers': {
    kind: 'stringSlice',
    section: 'etcd',
    usage:
      'List of etcd servers to connect with (scheme://ip:port), comma separated. Used with --storage etcd.',
  },
  'etcd-prefix': {
    kind: 'string',
    section: 'etcd',
    usage: 'The prefix to prepend to all resource paths in etcd.',
    default: '/registry',
  },
  'etcd-cafile': {
    kind: 'string',
    section: 'etcd',
    usage: 'SSL Certificate Authority file used to secure etcd communication.',
  },
  'etcd-certfile': {
    kind: 'string',
    section: 'etcd',
    usage: 'SSL certification file used to secure etcd communication.',
  },
  'etcd-keyfile': {
    kind: 'string',
    section: 'etcd',
    usage: 'SSL key file used to secure etcd communication.',
  },
  'etcd-compaction-interval': {
    kind: 'string',
    type: 'duration',
    section: 'etcd',
    usage: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.',
    default: '5m0s',
  },
  // Leader election (kube-controller-manager's flags; the controllers run in this process).
  'leader-elect': {
    kind: 'bool',
    section: 'controller manager',
    usage:
      'Start a leader election client and gain leadership before running the controllers. Default true with --storage etcd (several replicas may share it), false with the single-process stores.',
  },
  'leader-elect-lease-duration': {
    kind: 'string',
    type: 'duration',
    section: 'controller manager',
    usage:
      'How long a non-leader waits after observing a leadership renewal before it tries to take the lead.',
    default: '15s',
  },
  'leader-elect-renew-deadline': {
    kind: 'string',
    type: 'duration',
    section: 'controller manager',
    usage:
      'How long the leader keeps retrying to renew its lease before it stops leading; must be less than the lease duration.',
    default: '10s',
  },
  'leader-elect-retry-period': {
    kind: 'string',
    type: 'duration',
    section: 'controller manager',
    usage: 'How long clients wait between attempts to acquire or renew leadership.',
    default: '2s',
  },
  // The simulated cluster (scheduler, node agents): kubelet-style flags of its nodes.
  nodes: {
    kind: 'string',
    type: 'int',
    section: 'simulation',
    usage: 'How many simulated nodes run beside the server (0: none; pods then stay Pending).',
    default: '3',
  },
  'node-capacity': {
    kind: 'string',
    type: 'mapStringString',
    section: 'simulation',
    usage: "Each simulated node's capacity (and allocatable), e.g. cpu=4,memory=8Gi,pods=110.",
    default: 'cpu=4,ephemeral-storage=100Gi,memory=8Gi,pods=110',
  },
  'node-labels': {
    kind: 'string',
    type: 'mapStringString',
    section: 'simulation',
    usage:
      "Labels each simulated node registers with, as the kubelet's --node-labels (key=value,...; labels in the product's domain only those a node may set on itself).",
  },
  'simulation-speed': {
    kind: 'string',
    section: 'simulation',
    usage:
      "How fast simulated durations pass (image pulls, container creation): a factor (1 is real time, 10 ten times as fast) or 'instant'. The server's clock times everything else.",
    default: '1',
  },
  // Authentication.
  'anonymous-auth': {
    kind: 'bool',
    section: 'authentication',
    usage:
      'Enables anonymous requests to the secure port. Requests that are not rejected by another authentication method are treated as anonymous requests (username system:anonymous, group system:unauthenticated).',
    default: 'true',
  },
  'client-ca-file': {
    kind: 'string',
    section: 'authentication',
    usage:
      "Any request presenting a client certificate signed by one of the authorities in this file is authenticated with the identity of the certificate's CommonName.",
  },
  'token-auth-file': {
    kind: 'string',
    section: 'authentication',
    usage:
      'A file whose lines (token,user,uid,"group1,group2") secure the API server port with static bearer tokens.',
  },
  'enable-bootstrap-token-auth': {
    kind: 'bool',
    section: 'authentication',
    usage:
      "Allow secrets of type 'bootstrap.kubernetes.io/token' in the system namespace to be used for TLS bootstrapping authentication.",
  },
  'service-account-key-file': {
    kind: 'stringArray',
    section: 'authentication',
    usage:
      'File containing PEM-encoded x509 RSA or ECDSA keys used to verify ServiceAccount tokens. May be given several times.',
  },
  'service-account-issuer': {
    kind: 'stringArray',
    section: 'authentication',
    usage:
      'Identifier of the service account token issuer (the iss claim). The first is used to issue tokens, all are accepted. May be given several times.',
  },
  'service-account-lookup': {
    kind: 'bool',
    section: 'authentication',
    usage: 'If true, validate ServiceAccount tokens exist in etcd as part of authentication.',
    default: 'true',
  },
  'api-audiences': {
    kind: 'stringSlice',
    section: 'authentication',
    usage:
      'Identifiers of the API; service account tokens are validated against at least one of them. Defaults to the issuer.',
  },
  ...serviceAccountTokenFlagKinds,
  'oidc-issuer-url': {
    kind: 'string',
    section: 'authentication',
    usage:
      'The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).',
  },
  'oidc-client-id': {
    kind: 'string',
    section: 'authentication',
    usage: 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.',
  },
  'oidc-username-claim': {
    kind: 'string',
    section: 'authentication',
    usage: 'The OpenID claim to use as the user name.',
    default: 'sub',
  },
  'oidc-username-prefix': {
    kind: 'string',
    section: 'authentication',
    usage: "If provided, all usernames will be prefixed with this value; '-' disables prefixing.",
  },
  'oidc-groups-claim': {
    kind: 'string',
    section: 'authentication',
    usage:
      'If provided, the name of a custom OpenID Connect claim for specifying user groups (an array of strings).',
  },
  'oidc-groups-prefix': {
    kind: 'string',
    section: 'authentication',
    usage: 'If provided, all groups will be prefixed with this value.',
  },
  'oidc-required-claim': {
    kind: 'mapNoSplit',
    type: 'mapStringString',
    section: 'authentication',
    usage: 'A key=value pair that describes a required claim in the ID Token. May be given several times.',
  },
  'oidc-ca-file': {
    kind: 'string',
    section: 'authentication',
    usage:
      "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file.",
  },
  'oidc-signing-algs': {
    kind: 'stringSlice',
    section: 'authentication',
    usage: 'Comma-separated list of allowed JOSE asymmetric signing algorithms.',
    default: '[RS256]',
  },
  'authentication-token-webhook-config-file': {
    kind: 'string',
    section: 'authentication',
    usage: 'File with webhook configuration for token authentication in kubeconfig format.',
  },
  'authentication-token-webhook-cache-ttl': {
    kind: 'string',
    type: 'duration',
    section: 'authentication',
    usage: 'The duration to cache responses from the webhook token authenticator.',
    default: '2m0s',
  },
  'authentication-token-webhook-version': {
    kind: 'string',
    section: 'authentication',
    usage: 'The API version of the authentication.k8s.io TokenReview to send to and expect from the webhook.',
    default: 'v1beta1',
  },
  'requestheader-username-headers': {
    kind: 'stringSlice',
    section: 'authentication',
    usage: 'List of request headers to inspect for usernames. X-Remote-User is common.',
  },
  'requestheader-group-headers': {
    kind: 'stringSlice',
    section: 'authentication',
    usage: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
  },
  'requestheader-extra-headers-prefix': {
    kind: 'stringSlice',
    section: 'authentication',
    usage: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
  },
  'requestheader-client-ca-file': {
    kind: 'string',
    section: 'authentication',
    usage:
      'Root certificate bundle to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.',
  },
  'requestheader-allowed-names': {
    kind: 'stringSlice',
    section: 'authentication',
    usage:
      'List of client certificate common names to allow to provide usernames in headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
  },
  // Authorization.
  'authorization-mode': {
    kind: 'stringSlice',
    section: 'authorization',
    usage:
      'Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: AlwaysAllow,AlwaysDeny,Node,RBAC (ABAC and Webhook are refused).',
    default: '[Node,RBAC]',
  },
  // Admission.
  'enable-admission-plugins': {
    kind: 'stringSlice',
    section: 'admission',
    usage:
      'Admission plugins that should be enabled in addition to default enabled ones. Comma-delimited list of admission plugins.',
  },
  'disable-admission-plugins': {
    kind: 'stringSlice',
    section: 'admission',
    usage: 'Admission plugins that should be disabled although they are in the default enabled plugins list.',
  },
  'admission-control-config-file': {
    kind: 'string',
    section: 'admission',
    usage: 'File with admission control configuration.',
  },
  'default-not-ready-toleration-seconds': {
    kind: 'string',
    type: 'int',
    section: 'global',
    usage:
      'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.',
    default: '300',
  },
  'default-unreachable-toleration-seconds': {
    kind: 'string',
    type: 'int',
    section: 'global',
    usage:
      'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.',
    default: '300',
  },
  // Services: the addresses and ports the allocators hand out, and where the `kubernetes` Service points.
  'advertise-address': {
    kind: 'string',
    type: 'ip',
    section: 'generic',
    usage:
      'The IP address on which to advertise the apiserver to members of the cluster: the `kubernetes` Endpoints and EndpointSlice point at it. A loopback address is refused by Endpoints validation, as on a real server.',
    default: '192.168.49.2',
  },
  'service-cluster-ip-range': {
    kind: 'string',
    section: 'misc',
    usage:
      'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods. Max of two dual-stack CIDRs is allowed.',
    default: '10.0.0.0/24',
  },
  'service-node-port-range': {
    kind: 'string',
    type: 'portRange',
    section: 'misc',
    usage:
      "A port range to reserve for services with NodePort visibility.  This must not overlap with the ephemeral port range on nodes.  Example: '30000-32767'. Inclusive at both ends of the range.",
    default: '30000-32767',
  },
  // Health, graceful termination and metrics.
  'livez-grace-period': {
    kind: 'string',
    type: 'duration',
    section: 'generic',
    usage:
      'The longest the start-up sequence may take: until this long after start, /livez reports unfinished post-start hooks as passing.',
  },
  'shutdown-delay-duration': {
    kind: 'string',
    type: 'duration',
    section: 'generic',
    usage:
      'How long to keep serving after SIGTERM before graceful termination begins; /readyz fails at once while /livez and /healthz still pass, so load balancers can stop sending traffic.',
  },
  'shutdown-send-retry-after': {
    kind: 'bool',
    section: 'generic',
    usage:
      "If true, keep listening during graceful termination until the in-flight non-long-running requests have drained, refusing new requests with 429, a 'Retry-After' header and 'Connection: close'.",
  },
  'show-hidden-metrics-for-version': {
    kind: 'string',
    section: 'metrics',
    usage:
      "The previous minor version (<major>.<minor>, e.g. '1.26') whose hidden metrics to show again; no other value is accepted.",
  },
  // Audit.
  'audit-policy-file': {
    kind: 'string',
    section: 'auditing',
    usage: 'Path to the file that defines the audit policy configuration.',
  },
  'audit-log-path': {
    kind: 'string',
    section: 'auditing',
    usage:
      "If set, all requests coming to the apiserver will be logged to this file. '-' means standard out.",
  },
  // Certificate signing (kube-controller-manager's flags; the controllers run in this process).
  ...clusterSigningFlagKinds,
} as const satisfies Record<string, FlagDecl>;

/** The flag table as data, for `--help` (see flag-help.ts). */
export const hostFlags: Readonly<Record<string, FlagDecl>> = flagKinds;

type FlagName = keyof typeof flagKinds;

interface RawFlags {
  strings: Partial<Record<FlagName, string>>;
  bools: Partial<Record<FlagName, boolean>>;
  lists: Partial<Record<FlagName, string[]>>;
  maps: Partial<Record<FlagName, Record<string, string>>>;
}

function isFlagName(name: string): name is FlagName {
  return Object.hasOwn(flagKinds, name);
}

function invalid(name: string, value: string, why: string): FlagError {
  return new FlagError(`invalid argument "${value}" for "--${name}" flag: ${why}`);
}

/** The real server's refusal of a `--runtime-config` value that is not a Go bool (an empty value means true). */
function runtimeConfigError(text: string): string | undefined {
  for (const entry of text.split(',')) {
    const eq = entry.indexOf('=');
    if (eq < 0) continue;
    const key = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1);
    if (value !== '' && goParseBool(value) === undefined)
      return `invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing "${value}": invalid syntax`;
  }
  return undefined;
}

/** Go's strconv.ParseBool. */
function parseBool(name: string, value: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw invalid(name, value, `strconv.ParseBool: parsing "${value}": invalid syntax`);
}

/** The pflag pass: splits the words into typed values, with pflag's own error texts. */
function scan(argv: string[]): RawFlags {
  const raw: RawFlags = { strings: {}, bools: {}, lists: {}, maps: {} };
  const positional: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      positional.push(word);
      continue;
    }
    const body = word.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    // cobra's help flag: noted, and acted on once every word parsed (an unknown flag still fails first).
    if (name === 'help' || (name === 'h' && !word.startsWith('--'))) {
      help = eq < 0 || parseBool('help', body.slice(eq + 1));
      continue;
    }
    if (!isFlagName(name))
      throw new FlagError(
        word.startsWith('--')
          ? `unknown flag: --${name}`
          : `unknown shorthand flag: '${name[0] ?? ''}' in ${word}`,
      );
    const kind: FlagKind = kindOf(flagKinds[name]);
    let value: string;
    if (eq >= 0) value = body.slice(eq + 1);
    else if (kind === 'bool') value = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new FlagError(`flag needs an argument: --${name}`);
      value = next;
      i++;
    }
    switch (kind) {
      case 'bool':
        raw.bools[name] = parseBool(name, value);
        break;
      case 'string':
        raw.strings[name] = value;
        break;
      case 'stringArray':
      case 'mapStringBool':
        (raw.lists[name] ??= []).push(value);
        break;
      case 'stringSlice':
        // An empty value is an empty list (pflag reads `--x=` as no entries).
        (raw.lists[name] ??= []).push(...(value === '' ? [] : value.split(',')));
        break;
      case 'mapNoSplit': {
        const at = value.indexOf('=');
        if (at < 0) throw invalid(name, value, 'malformed pair, expect string=string');
        (raw.maps[name] ??= {})[value.slice(0, at).trim()] = value.slice(at + 1).trim();
        break;
      }
    }
  }
  if (help) throw new HelpRequested();
  // The real command refuses arguments that are not flags.
  if (positional.some((a) => a !== ''))
    throw new FlagError(
      `"kube-apiserver" does not take any arguments, got [${positional.map((a) => JSON.stringify(a)).join(' ')}]`,
    );
  return raw;
}

/** Go's error text for a file that cannot be opened (`open /x: no such file or directory`). */
function goFileError(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory'
          : error instanceof Error
            ? error.message
            : String(error);
  return `${code === 'EISDIR' ? 'read' : 'open'} ${path}: ${why}`;
}

export type ReadFile = (path: string) => string;

const readUtf8: ReadFile = (path) => readFileSync(path, 'utf8');

/** Reads a file, failing with Go's `open <path>: <reason>` text. */
function goRead(read: ReadFile, path: string): string {
  try {
    return read(path);
  } catch (e) {
    throw new Error(goFileError(path, e));
  }
}

function readFlagFile(read: ReadFile, path: string, context: string): string {
  try {
    return read(path);
  } catch (e) {
    throw new FlagError(`${context}${goFileError(path, e)}`);
  }
}

/** The modes the core implements; the real server also knows ABAC and Webhook. */
const supportedModes: readonly AuthorizationMode[] = ['AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC'];

function isSupportedMode(mode: string): mode is AuthorizationMode {
  return (supportedModes as readonly string[]).includes(mode);
}
const realModes: readonly string[] = [...supportedModes, 'ABAC', 'Webhook'];

/** Algorithms go-oidc verifies (the real server's allow-list for `--oidc-signing-algs`). */
const oidcAlgs = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];

/** The real `checkForWhiteSpaceOnly` of the request-header options. */
function whitespaceOnly(flag: string, values: string[] | undefined): string | undefined {
  return values?.some((v) => v.trim() === '') === true ? `empty value in "${flag}"` : undefined;
}

function authorizationErrors(modes: string[]): string[] {
  const errors: string[] = [];
  if (modes.length === 0) errors.push('at least one authorization-mode must be passed');
  for (const mode of modes) {
    if (!realModes.includes(mode)) errors.push(`authorization-mode "${mode}" is not a valid mode`);
    else if (!isSupportedMode(mode))
      errors.push(
        `authorization-mode "${mode}" is not supported by this server (use ${supportedModes.join(', ')})`,
      );
  }
  if (new Set(modes).size !== modes.length)
    errors.push(
      `authorization-mode [${modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`,
    );
  return errors;
}

/**
 * The authentication flags as the core's configuration, with the files read.
 * Validation messages are the real server's; several at once are joined as
 * Go's error aggregate prints them (`[a, b]`).
 */
function authenticationOf(
  raw: RawFlags,
  read: ReadFile,
  warn: (message: string) => void,
  modes: string[] | undefined,
): { config: AuthenticationConfig | undefined; errors: string[] } {
  const s = raw.strings;
  const l = raw.lists;
  const errors: string[] = [];
  const config: AuthenticationConfig = {};
  let any = false;

  const anonymous = raw.bools['anonymous-auth'];
  if (anonymous !== undefined) {
    config.anonymous = anonymous;
    any = true;
  }
  // The real server stomps anonymous access off under AlwaysAllow, with this warning.
  if ((config.anonymous ?? true) && modes?.includes('AlwaysAllow') === true) {
    warn(
      'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer',
    );
    config.anonymous = false;
    any = true;
  }

  if (s['client-ca-file'] !== undefined) {
    config.clientCA = readFlagFile(read, s['client-ca-file'], 'unable to load client CA provider: ');
    any = true;
  }
  if (s['token-auth-file'] !== undefined) {
    config.tokenFile = readFlagFile(read, s['token-auth-file'], '');
    any = true;
  }
  if (raw.bools['enable-bootstrap-token-auth'] !== undefined) {
    config.bootstrapTokens = raw.bools['enable-bootstrap-token-auth'];
    any = true;
  }

  const saKeys = l['service-account-key-file'];
  const saIssuers = l['service-account-issuer'];
  const saLookup = raw.bools['service-account-lookup'];
  const audiences = l['api-audiences'];
  if (saKeys !== undefined || saIssuers !== undefined || saLookup !== undefined || audiences !== undefined) {
    const seen = new Set<string>();
    for (const issuer of saIssuers ?? []) {
      if (issuer.includes(':') && !URL.canParse(issuer))
        errors.push(`service-account-issuer "${issuer}" contained a ':' but was not a valid URL`);
      else if (issuer === '') errors.push('service-account-issuer should not be an empty string');
      else if (seen.has(issuer)) errors.push(`service-account-issuer "${issuer}" is already specified`);
      seen.add(issuer);
    }
    // Empty lists mean "the core's own": it signs with its generated key as its default issuer.
    config.serviceAccount = {
      keys: (saKeys ?? []).map((path) =>
        readFlagFile(read, path, 'failed to read service-account-key-file: '),
      ),
      issuers: saIssuers ?? [],
      ...(saLookup !== undefined ? { lookup: saLookup } : {}),
      ...(audiences !== undefined ? { apiAudiences: audiences } : {}),
    };
    any = true;
  }

  const issuerURL = s['oidc-issuer-url'] ?? '';
  const clientID = s['oidc-client-id'] ?? '';
  if ((issuerURL !== '') !== (clientID !== ''))
    errors.push('oidc-issuer-url and oidc-client-id should be specified together');
  else if (issuerURL !== '') {
    const scheme = URL.canParse(issuerURL) ? new URL(issuerURL).protocol.replace(/:$/, '') : '';
    if (scheme !== 'https')
      errors.push(`'oidc-issuer-url' ("${issuerURL}") has invalid scheme ("${scheme}"), require 'https'`);
    for (const alg of l['oidc-signing-algs'] ?? [])
      if (!oidcAlgs.includes(alg)) errors.push(`oidc: unsupported signing alg: "${alg}"`);
    config.oidc = {
      issuerURL,
      clientID,
      ...(s['oidc-username-claim'] !== undefined ? { usernameClaim: s['oidc-username-claim'] } : {}),
      ...(s['oidc-username-prefix'] !== undefined ? { usernamePrefix: s['oidc-username-prefix'] } : {}),
      ...(s['oidc-groups-claim'] !== undefined ? { groupsClaim: s['oidc-groups-claim'] } : {}),
      ...(s['oidc-groups-prefix'] !== undefined ? { groupsPrefix: s['oidc-groups-prefix'] } : {}),
      ...(raw.maps['oidc-required-claim'] !== undefined
        ? { requiredClaims: raw.maps['oidc-required-claim'] }
        : {}),
      ...(s['oidc-ca-file'] !== undefined
        ? { caPEM: readFlagFile(read, s['oidc-ca-file'], 'failed to read the OIDC CA file: ') }
        : {}),
      ...(l['oidc-signing-algs'] !== undefined ? { signingAlgs: l['oidc-signing-algs'] } : {}),
    };
    any = true;
  }

  const webhookFile = s['authentication-token-webhook-config-file'];
  const version = s['authentication-token-webhook-version'];
  if (version !== undefined && version !== 'v1' && version !== 'v1beta1')
    errors.push(
      `unsupported authentication webhook version "${version}", supported versions are "v1", "v1beta1"`,
    );
  let cacheTTLms: number | undefined;
  const ttl = s['authentication-token-webhook-cache-ttl'];
  if (ttl !== undefined) {
    try {
      cacheTTLms = parseGoDuration(ttl);
    } catch (e) {
      throw invalid('authentication-token-webhook-cache-ttl', ttl, (e as Error).message);
    }
  }
  if (webhookFile !== undefined) {
    config.webhook = {
      kubeconfig: readFlagFile(read, webhookFile, ''),
      // Files the kubeconfig names are read beside it, with Go's wording when one cannot be read.
      files: { path: resolve(webhookFile), read: (path) => goRead(read, path) },
      ...(cacheTTLms !== undefined ? { cacheTTLms } : {}),
      ...(version === 'v1' || version === 'v1beta1' ? { version } : {}),
    };
    any = true;
  }

  for (const flag of [
    'requestheader-username-headers',
    'requestheader-group-headers',
    'requestheader-extra-headers-prefix',
    'requestheader-allowed-names',
  ] as const) {
    const error = whitespaceOnly(flag, l[flag]);
    if (error !== undefined) errors.push(error);
  }
  // As on the real server, the proxy's headers are honoured only with a CA to check the proxy against.
  const proxyCA = s['requestheader-client-ca-file'];
  if (proxyCA !== undefined && proxyCA !== '') {
    const usernameHeaders = l['requestheader-username-headers'] ?? [];
    if (usernameHeaders.length > 0) {
      config.requestHeader = {
        usernameHeaders,
        clientCA: readFlagFile(read, proxyCA, 'unable to load requestheader client CA file: '),
        ...(l['requestheader-group-headers'] !== undefined
          ? { groupHeaders: l['requestheader-group-headers'] }
          : {}),
        ...(l['requestheader-extra-headers-prefix'] !== undefined
          ? { extraHeaderPrefixes: l['requestheader-extra-headers-prefix'] }
          : {}),
        ...(l['requestheader-allowed-names'] !== undefined
          ? { allowedNames: l['requestheader-allowed-names'] }
          : {}),
      };
      any = true;
    }
  }
  return { config: any ? config : undefined, errors };
}

function parsePort(name: string, value: string, allowZero: boolean): number {
  const port = Number(value);
  if (!/^-?\d+$/.test(value))
    throw invalid(name, value, `strconv.ParseInt: parsing "${value}": invalid syntax`);
  if (port < (allowZero ? 0 : 1) || port > 65535)
    throw new FlagError(
      allowZero
        ? `--${name} ${value} must be between 0 and 65535, inclusive`
        : `--${name} ${value} must be between 1 and 65535, inclusive. It cannot be turned off with 0`,
    );
  return port;
}

/**
 * Parses the host's command line. Throws `FlagError` with the real server's
 * message; `warn` receives what the real server logs as a warning and goes on.
 */
export function parseHostArgs(
  argv: string[],
  read: ReadFile = readUtf8,
  warn: (message: string) => void = () => undefined,
): NodeHostOptions {
  const raw = scan(argv);
  const s = raw.strings;
  const options: NodeHostOptions = {};
  // `--port 0` (a free port) stays possible for tests; the real `--secure-port` cannot be 0.
  if (s.port !== undefined) options.port = parsePort('port', s.port, true);
  if (s['secure-port'] !== undefined) options.port = parsePort('secure-port', s['secure-port'], false);
  if (s.host !== undefined) options.host = s.host;
  if (s['bind-address'] !== undefined) {
    if (isIP(s['bind-address']) === 0)
      throw invalid('bind-address', s['bind-address'], `failed to parse IP: "${s['bind-address']}"`);
    options.host = s['bind-address'];
  }
  const certFile = s['tls-cert-file'];
  const keyFile = s['tls-private-key-file'];
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  if (certFile !== undefined && keyFile !== undefined)
    options.tls = {
      certPEM: readFlagFile(read, certFile, 'unable to load server certificate: '),
      keyPEM: readFlagFile(read, keyFile, 'unable to load server certificate: '),
    };
  if (raw.bools['insecure-http'] === true) options.insecureHttp = true;
  if (s.profile !== undefined) {
    if (!isProfileName(s.profile)) throw invalid('profile', s.profile, 'must be orch or kubernetes');
    options.profile = s.profile;
  }
  if (s.kubeconfig !== undefined) options.kubeconfig = s.kubeconfig;
  if (s.storage !== undefined) {
    if (s.storage !== 'dexie' && s.storage !== 'memory' && s.storage !== 'etcd')
      throw invalid('storage', s.storage, 'must be dexie, memory or etcd');
    options.storage = s.storage;
  }
  etcdOf(raw, options);
  if (s['runtime-config'] !== undefined) {
    options.runtimeConfig = s['runtime-config'];
    const error = runtimeConfigError(s['runtime-config']);
    if (error !== undefined) throw new CommandFailed(error);
  }
  const gateFlags = raw.lists['feature-gates'];
  if (gateFlags !== undefined) options.featureGates = parseFeatureGates(gateFlags, warn);
  if (s['compaction-interval'] !== undefined) {
    try {
      options.compactionIntervalMs = parseGoDuration(s['compaction-interval']);
    } catch (e) {
      throw invalid('compaction-interval', s['compaction-interval'], (e as Error).message);
    }
    // As the sandbox settings API: a zero or negative period would make the compaction timer spin.
    if (options.compactionIntervalMs < 1000)
      throw invalid('compaction-interval', s['compaction-interval'], 'must be at least 1s');
  }

  const modes = raw.lists['authorization-mode'];
  const errors: string[] = modes !== undefined ? authorizationErrors(modes) : [];
  // Reached only when every mode is supported (otherwise an error is thrown below).
  if (modes !== undefined) options.authorizationModes = modes.filter(isSupportedMode);
  const authn = authenticationOf(raw, read, warn, modes);
  errors.push(...authn.errors);
  errors.push(...admissionOf(raw, read, options));
  const saTokens = serviceAccountTokensOf(
    raw,
    (path, context) => readFlagFile(read, path, context),
    (message) => new FlagError(message),
    warn,
  );
  if (saTokens.options !== undefined) options.serviceAccountTokens = saTokens.options;
  errors.push(...saTokens.errors);
  auditOf(raw, read, options, warn);
  errors.push(...servicesOf(raw, options));
  errors.push(...leaderElectionOf(raw, options));
  errors.push(...lifecycleOf(raw, options));
  simulationOf(raw, options);
  const signing = clusterSigningOf(
    raw.strings,
    (path, context) => readFlagFile(read, path, context),
    (message) => new FlagError(message),
  );
  if (signing.options !== undefined) options.clusterSigning = signing.options;
  errors.push(...signing.errors);
  if (authn.config !== undefined) options.authentication = authn.config;
  // Go's utilerrors.Aggregate: one error as itself, several in brackets.
  if (errors.length === 1) throw new FlagError(errors[0]);
  if (errors.length > 1) throw new FlagError(`[${errors.join(', ')}]`);
  return options;
}

/** `--nodes`, `--node-capacity`, `--node-labels`, `--simulation-speed`: the simulated cluster's settings. */
function simulationOf(raw: RawFlags, options: NodeHostOptions): void {
  const s = raw.strings;
  const settings: Partial<SimulationSettings> = {};
  if (s.nodes !== undefined) {
    if (!/^\d+$/.test(s.nodes))
      throw invalid('nodes', s.nodes, `strconv.ParseInt: parsing ${JSON.stringify(s.nodes)}: invalid syntax`);
    settings.nodes = Number(s.nodes);
  }
  const map = (flag: 'node-capacity' | 'node-labels'): Record<string, string> | undefined => {
    const text = s[flag];
    if (text === undefined) return undefined;
    try {
      return parseLabelList(text);
    } catch (e) {
      throw invalid(flag, text, (e as Error).message);
    }
  };
  const capacity = map('node-capacity');
  if (capacity !== undefined) settings.capacity = capacity;
  const labels = map('node-labels');
  if (labels !== undefined) settings.labels = labels;
  const speed = s['simulation-speed'];
  if (speed !== undefined) settings.speed = speed === 'instant' ? 'instant' : Number(speed);
  if (Object.keys(settings).length === 0) return;
  try {
    validateSimulationSettings(namingProfile(options.profile ?? 'orch'), settings);
  } catch (e) {
    if (!(e instanceof SettingsError)) throw e;
    const flag = /label/.test(e.message)
      ? 'node-labels'
      : /capacity/.test(e.message)
        ? 'node-capacity'
        : /speed/.test(e.message)
          ? 'simulation-speed'
          : 'nodes';
    throw invalid(flag, s[flag] ?? '', e.message);
  }
  options.simulation = { settings };
}

/**
 * `--leader-elect` and its durations, validated as the controller manager's LeaderElectionConfiguration is.
 * Unset, the host decides (see host.ts): on with `--storage etcd`, as the real controller manager's default; off
 * with the single-process stores, where no other replica can run controllers and a restart would wait out its lease.
 */
function leaderElectionOf(raw: RawFlags, options: NodeHostOptions): string[] {
  const s = raw.strings;
  const elect = raw.bools['leader-elect'];
  const durations = {
    leaseDurationMs: 'leader-elect-lease-duration',
    renewDeadlineMs: 'leader-elect-renew-deadline',
    retryPeriodMs: 'leader-elect-retry-period',
  } as const;
  const config: NonNullable<NodeHostOptions['leaderElection']> = { leaderElect: elect ?? false };
  for (const [key, flag] of Object.entries(durations) as [keyof typeof durations, FlagName][]) {
    const text = s[flag];
    if (text === undefined) continue;
    try {
      config[key] = parseGoDuration(text);
    } catch (e) {
      throw invalid(flag, text, (e as Error).message);
    }
  }
  if (elect === undefined && Object.keys(config).length === 1) return [];
  options.leaderElection = config;
  if (!config.leaderElect) return [];
  const lease = config.leaseDurationMs ?? 15_000;
  const renew = config.renewDeadlineMs ?? 10_000;
  const retry = config.retryPeriodMs ?? 2_000;
  const errors: string[] = [];
  const field = (name: string, ms: number, why: string) =>
    `leaderElection.${name}: Invalid value: "${formatGoDuration(ms)}": ${why}`;
  if (lease <= 0) errors.push(field('leaseDuration', lease, 'must be greater than zero'));
  if (renew <= 0) errors.push(field('renewDeadline', renew, 'must be greater than zero'));
  if (retry <= 0) errors.push(field('retryPeriod', retry, 'must be greater than zero'));
  if (lease <= renew)
    errors.push(field('leaseDuration', renew, 'LeaseDuration must be greater than RenewDeadline'));
  else if (renew <= 1.2 * retry)
    errors.push(field('renewDeadline', renew, 'renewDeadline must be greater than retryPeriod*JitterFactor'));
  return errors;
}

/** Go's strconv.ParseInt for a toleration-seconds flag. */
function parseSeconds(name: FlagName, value: string): number {
  if (!/^-?\d+$/.test(value))
    throw invalid(name, value, `strconv.ParseInt: parsing "${value}": invalid syntax`);
  return Number(value);
}

/** The admission flags; returns the validation errors the real server reports. */
function admissionOf(raw: RawFlags, read: ReadFile, options: NodeHostOptions): string[] {
  const admission: { -readonly [K in keyof AdmissionOptions]: AdmissionOptions[K] } = {};
  const enable = raw.lists['enable-admission-plugins'];
  const disable = raw.lists['disable-admission-plugins'];
  if (enable !== undefined) admission.enablePlugins = enable;
  if (disable !== undefined) admission.disablePlugins = disable;
  const file = raw.strings['admission-control-config-file'];
  if (file !== undefined && file !== '') {
    const profile = namingProfile(options.profile ?? 'orch');
    const text = readFlagFile(read, file, 'failed to read plugin config: ');
    admission.loadFile = (path) => read(isAbsolute(path) ? path : join(dirname(file), path));
    try {
      admission.pluginConfigurations = parseAdmissionConfiguration(
        profile,
        text,
        (path) => read(isAbsolute(path) ? path : join(dirname(file), path)),
        file,
        parseYaml,
      );
    } catch (e) {
      if (e instanceof AdmissionConfigError)
        throw new FlagError(`failed to read plugin config: ${e.message}`);
      throw e;
    }
  }
  if (Object.keys(admission).length > 0) options.admission = admission;
  const notReady = raw.strings['default-not-ready-toleration-seconds'];
  const unreachable = raw.strings['default-unreachable-toleration-seconds'];
  if (notReady !== undefined || unreachable !== undefined)
    options.admissionFlags = {
      ...(notReady !== undefined
        ? { defaultNotReadyTolerationSeconds: parseSeconds('default-not-ready-toleration-seconds', notReady) }
        : {}),
      ...(unreachable !== undefined
        ? {
            defaultUnreachableTolerationSeconds: parseSeconds(
              'default-unreachable-toleration-seconds',
              unreachable,
            ),
          }
        : {}),
    };
  return validateAdmissionOptions(admission);
}

/**
 * `--advertise-address` (an IP, as pflag's IP flag parses it), `--service-node-port-range` (pflag's PortRange)
 * and `--service-cluster-ip-range` (validated as the real server's options: a bad CIDR stops the start at once,
 * the size and dual-stack rules are validation errors).
 */
function servicesOf(raw: RawFlags, options: NodeHostOptions): string[] {
  const s = raw.strings;
  const advertise = s['advertise-address'];
  if (advertise !== undefined && advertise !== '') {
    if (isIP(advertise) === 0)
      throw invalid('advertise-address', advertise, `failed to parse IP: "${advertise}"`);
    options.advertiseAddress = advertise;
  }
  const ports = s['service-node-port-range'];
  if (ports !== undefined) {
    try {
      parsePortRange(ports);
    } catch (e) {
      throw invalid('service-node-port-range', ports, (e as Error).message);
    }
    options.serviceNodePortRange = ports;
  }
  const range = s['service-cluster-ip-range'];
  if (range === undefined) return [];
  try {
    parseServiceClusterIPRanges(range);
  } catch (e) {
    const message = (e as Error).message;
    if (message.startsWith('service-cluster-ip-range[')) throw new FlagError(message);
    return [message];
  }
  options.serviceClusterIPRange = range;
  return [];
}

/** `--audit-policy-file` and `--audit-log-path` (`-` is standard output). */
function auditOf(
  raw: RawFlags,
  read: ReadFile,
  options: NodeHostOptions,
  warn: (message: string) => void,
): void {
  const file = raw.strings['audit-policy-file'];
  const logPath = raw.strings['audit-log-path'];
  if (file === undefined || file === '') {
    if (logPath !== undefined && logPath !== '')
      warn('No audit policy file provided, no events will be recorded for log backend');
    return;
  }
  const text = readFlagFile(read, file, 'loading audit policy file: ');
  try {
    const policy = parseAuditPolicy(namingProfile(options.profile ?? 'orch'), text, parseYaml);
    options.audit = { policy, ...(logPath !== undefined && logPath !== '' ? { logPath } : {}) };
  } catch (e) {
    if (e instanceof AuditPolicyError)
      throw new FlagError(`loading audit policy file: ${e.message}: from file ${file}`);
    throw e;
  }
}

/** `--etcd-*`: where `--storage etcd` keeps its state (see src/hosts/node/etcd/). */
function etcdOf(raw: RawFlags, options: NodeHostOptions): void {
  const s = raw.strings;
  const servers = raw.lists['etcd-servers'];
  const interval = s['etcd-compaction-interval'];
  if (interval !== undefined) {
    try {
      options.etcdCompactionIntervalMs = parseGoDuration(interval);
    } catch (e) {
      throw invalid('etcd-compaction-interval', interval, (e as Error).message);
    }
  }
  if (options.storage !== 'etcd') return;
  if (servers === undefined || servers.length === 0) throw new FlagError('--etcd-servers must be specified');
  try {
    options.etcd = { servers: parseEtcdServers(servers.join(',')) };
  } catch (e) {
    throw new FlagError((e as Error).message);
  }
  if (s['etcd-prefix'] !== undefined) options.etcd.prefix = s['etcd-prefix'];
  if (s['etcd-cafile'] !== undefined) options.etcd.caFile = s['etcd-cafile'];
  if (s['etcd-certfile'] !== undefined) options.etcd.certFile = s['etcd-certfile'];
  if (s['etcd-keyfile'] !== undefined) options.etcd.keyFile = s['etcd-keyfile'];
}

/**
 * `--livez-grace-period`, `--shutdown-delay-duration`, `--shutdown-send-retry-after` and
 * `--show-hidden-metrics-for-version`, validated as the real server's run and metrics options are.
 */
function lifecycleOf(raw: RawFlags, options: NodeHostOptions): string[] {
  const errors: string[] = [];
  const duration = (flag: 'livez-grace-period' | 'shutdown-delay-duration'): number | undefined => {
    const text = raw.strings[flag];
    if (text === undefined) return undefined;
    try {
      return parseGoDuration(text);
    } catch (e) {
      throw invalid(flag, text, (e as Error).message);
    }
  };
  const grace = duration('livez-grace-period');
  if (grace !== undefined) {
    if (grace < 0) errors.push('--livez-grace-period can not be a negative value');
    options.livezGracePeriodMs = grace;
  }
  const delay = duration('shutdown-delay-duration');
  if (delay !== undefined) {
    if (delay < 0) errors.push('--shutdown-delay-duration can not be negative value');
    options.shutdownDelayMs = delay;
  }
  if (raw.bools['shutdown-send-retry-after'] !== undefined)
    options.shutdownSendRetryAfter = raw.bools['shutdown-send-retry-after'];
  const hidden = raw.strings['show-hidden-metrics-for-version'];
  if (hidden !== undefined) {
    const error = showHiddenMetricsError(serverVersion.gitVersion.replace(/^v/, ''), hidden);
    if (error !== undefined) errors.push(error);
    else if (hidden !== '') options.showHiddenMetricsForVersion = hidden;
  }
  return errors;
}
