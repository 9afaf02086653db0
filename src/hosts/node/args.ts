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
import { dirname, isAbsolute, join } from 'node:path';
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

/** A bad command line: the message is the real server's, printed after `Error: `. */
export class FlagError extends Error {}

export function parseFeatureGates(text: string): Record<string, boolean> {
  const gates: Record<string, boolean> = {};
  for (const entry of text.split(',').filter((e) => e.trim() !== '')) {
    const [name, value] = entry.split('=');
    if (name === undefined || (value !== 'true' && value !== 'false'))
      throw new Error(`invalid feature gate "${entry}" (expected Name=true|false)`);
    gates[name.trim()] = value === 'true';
  }
  return gates;
}

type FlagKind = 'string' | 'bool' | 'stringArray' | 'stringSlice' | 'mapNoSplit';

/** Every flag the host knows, with the pflag type the real server declares it with. */
const flagKinds = {
  // Serving (the real names, plus the sandbox's older `--port`/`--host` spellings).
  port: 'string',
  host: 'string',
  'secure-port': 'string',
  'bind-address': 'string',
  'tls-cert-file': 'string',
  'tls-private-key-file': 'string',
  'insecure-http': 'bool',
  // Sandbox settings.
  profile: 'string',
  kubeconfig: 'string',
  storage: 'string',
  'runtime-config': 'string',
  'feature-gates': 'string',
  'compaction-interval': 'string',
  // etcd (the real server's storage flags).
  'etcd-servers': 'stringSlice',
  'etcd-prefix': 'string',
  'etcd-cafile': 'string',
  'etcd-certfile': 'string',
  'etcd-keyfile': 'string',
  'etcd-compaction-interval': 'string',
  // Leader election (kube-controller-manager's flags; the controllers run in this process).
  'leader-elect': 'bool',
  'leader-elect-lease-duration': 'string',
  'leader-elect-renew-deadline': 'string',
  'leader-elect-retry-period': 'string',
  // Authentication.
  'anonymous-auth': 'bool',
  'client-ca-file': 'string',
  'token-auth-file': 'string',
  'enable-bootstrap-token-auth': 'bool',
  'service-account-key-file': 'stringArray',
  'service-account-issuer': 'stringArray',
  'service-account-lookup': 'bool',
  'api-audiences': 'stringSlice',
  ...serviceAccountTokenFlagKinds,
  'oidc-issuer-url': 'string',
  'oidc-client-id': 'string',
  'oidc-username-claim': 'string',
  'oidc-username-prefix': 'string',
  'oidc-groups-claim': 'string',
  'oidc-groups-prefix': 'string',
  'oidc-required-claim': 'mapNoSplit',
  'oidc-ca-file': 'string',
  'oidc-signing-algs': 'stringSlice',
  'authentication-token-webhook-config-file': 'string',
  'authentication-token-webhook-cache-ttl': 'string',
  'authentication-token-webhook-version': 'string',
  'requestheader-username-headers': 'stringSlice',
  'requestheader-group-headers': 'stringSlice',
  'requestheader-extra-headers-prefix': 'stringSlice',
  'requestheader-client-ca-file': 'string',
  'requestheader-allowed-names': 'stringSlice',
  // Authorization.
  'authorization-mode': 'stringSlice',
  // Admission.
  'enable-admission-plugins': 'stringSlice',
  'disable-admission-plugins': 'stringSlice',
  'admission-control-config-file': 'string',
  'default-not-ready-toleration-seconds': 'string',
  'default-unreachable-toleration-seconds': 'string',
  // Audit.
  'audit-policy-file': 'string',
  'audit-log-path': 'string',
  // Certificate signing (kube-controller-manager's flags; the controllers run in this process).
  ...clusterSigningFlagKinds,
} as const satisfies Record<string, FlagKind>;

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
    if (!isFlagName(name))
      throw new FlagError(
        word.startsWith('--')
          ? `unknown flag: --${name}`
          : `unknown shorthand flag: '${name[0] ?? ''}' in ${word}`,
      );
    const kind: FlagKind = flagKinds[name];
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
  if (s['runtime-config'] !== undefined) options.runtimeConfig = s['runtime-config'];
  if (s['feature-gates'] !== undefined) {
    try {
      options.featureGates = parseFeatureGates(s['feature-gates']);
    } catch (e) {
      throw invalid('feature-gates', s['feature-gates'], (e as Error).message);
    }
  }
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
  errors.push(...leaderElectionOf(raw, options));
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

/**
 * `--leader-elect` (default false here: one replica needs no lease, and a restarted one would wait out its old
 * lease; the real controller manager defaults to true) and its durations, validated as the controller manager's
 * LeaderElectionConfiguration is.
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
    const policy = parseAuditPolicy(namingProfile(options.profile ?? 'orch'), text);
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
