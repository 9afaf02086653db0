/**
 * The kubeconfig model (clientcmd's v1 `Config`) and how kubectl turns it
 * and the global flags into one connection: the context named by
 * `--context` or `current-context`, its cluster and user (overridden by
 * `--cluster`, `--user`, `-s`, `--token`, `--certificate-authority`, …),
 * the namespace (`-n`, else the context's, else `default`) and the
 * impersonation flags. Several files (KUBECONFIG=a:b) merge as clientcmd
 * merges them: the first file that sets a map entry or a field wins.
 */

import type { FlagSet } from '../flags/pflag';

export interface KubeCluster {
  server?: string;
  'tls-server-name'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'proxy-url'?: string;
  'disable-compression'?: boolean;
}

export interface KubeUser {
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  token?: string;
  tokenFile?: string;
  as?: string;
  'as-uid'?: string;
  'as-groups'?: string[];
  username?: string;
  password?: string;
  'auth-provider'?: unknown;
  exec?: unknown;
}

export interface KubeContext {
  cluster: string;
  user: string;
  namespace?: string;
}

export interface KubeConfig {
  kind?: string;
  apiVersion?: string;
  preferences?: Record<string, unknown>;
  clusters: { name: string; cluster: KubeCluster }[];
  users: { name: string; user: KubeUser }[];
  contexts: { name: string; context: KubeContext }[];
  'current-context': string;
}

export function emptyConfig(): KubeConfig {
  return { clusters: [], users: [], contexts: [], 'current-context': '' };
}

/** Reads one parsed kubeconfig document leniently (missing lists are empty). */
export function configFrom(value: unknown): KubeConfig {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Partial<KubeConfig>;
  const list = <T>(x: unknown): T[] => (Array.isArray(x) ? (x as T[]) : []);
  return {
    ...(v.kind !== undefined ? { kind: v.kind } : {}),
    ...(v.apiVersion !== undefined ? { apiVersion: v.apiVersion } : {}),
    ...(v.preferences !== undefined ? { preferences: v.preferences } : {}),
    clusters: list<KubeConfig['clusters'][number]>(v.clusters).map((c) => ({
      name: c.name,
      cluster: c.cluster ?? {},
    })),
    users: list<KubeConfig['users'][number]>(v.users).map((u) => ({ name: u.name, user: u.user ?? {} })),
    contexts: list<KubeConfig['contexts'][number]>(v.contexts).map((c) => ({
      name: c.name,
      context: c.context ?? { cluster: '', user: '' },
    })),
    'current-context': typeof v['current-context'] === 'string' ? v['current-context'] : '',
  };
}

/** clientcmd's merge: earlier files win, for map entries and for the current context. */
export function mergeConfigs(configs: KubeConfig[]): KubeConfig {
  const out = emptyConfig();
  for (const c of configs) {
    for (const key of ['clusters', 'users', 'contexts'] as const) {
      for (const entry of c[key]) {
        const list = out[key] as { name: string }[];
        if (!list.some((e) => e.name === entry.name)) list.push(entry);
      }
    }
    if (out['current-context'] === '' && c['current-context'] !== '')
      out['current-context'] = c['current-context'];
  }
  return out;
}

/** Where and as whom requests go. PEM texts are already read (from `-data` or from files). */
export interface Connection {
  server: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  caPEM?: string;
  clientCertPEM?: string;
  clientKeyPEM?: string;
  token?: string;
  username?: string;
  password?: string;
  /** Impersonation headers. */
  impersonate?: { user?: string; groups: string[]; uid?: string };
}

/** What kubectl resolved from the kubeconfig and the flags. */
export interface ResolvedConfig {
  contextName: string;
  clusterName: string;
  userName: string;
  namespace: string;
  /** Whether the namespace came from `-n` (an explicit namespace conflicts with a file's). */
  namespaceExplicit: boolean;
  connection: Connection;
}

/** kubectl's error when nothing says where the server is. */
export class ConfigError extends Error {}

export const noConfigMessage =
  'The connection to the server localhost:8080 was refused - did you specify the right host or port?';

export function decodeBase64Text(data: string): string {
  const binary = atob(data.replace(/\s+/g, ''));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Resolves the connection as clientcmd's DirectClientConfig does. `readFile`
 * reads the files a kubeconfig names (certificates, keys, token files).
 */
export async function resolveConfig(
  config: KubeConfig,
  flags: FlagSet,
  readFile: (path: string) => Promise<string | undefined>,
): Promise<ResolvedConfig> {
  const global = (name: string): string => (flags.shadowed.has(name) ? '' : flags.string(name));
  const globalChanged = (name: string): boolean => !flags.shadowed.has(name) && flags.changed.has(name);
  const contextName = global('context') || config['current-context'];
  const context = config.contexts.find((c) => c.name === contextName)?.context;
  if (globalChanged('context') && context === undefined)
    throw new ConfigError(`context was not found for specified context: ${contextName}`);
  const clusterName = global('cluster') || context?.cluster || '';
  const userName = global('user') || context?.user || '';
  const cluster = config.clusters.find((c) => c.name === clusterName)?.cluster;
  if (globalChanged('cluster') && cluster === undefined)
    throw new ConfigError(`cluster "${clusterName}" does not exist`);
  const user = config.users.find((u) => u.name === userName)?.user ?? {};
  if (globalChanged('user') && !config.users.some((u) => u.name === userName))
    throw new ConfigError(`auth info "${userName}" does not exist`);
  const c: KubeCluster = { ...(cluster ?? {}) };
  const server = global('server') || c.server || '';
  const read = async (path: string | undefined, data: string | undefined): Promise<string | undefined> => {
    if (data !== undefined && data !== '') return decodeBase64Text(data);
    if (path === undefined || path === '') return undefined;
    const text = await readFile(path);
    if (text === undefined) throw new ConfigError(`unable to read file ${path}`);
    return text;
  };
  const caFlag = global('certificate-authority');
  const certFlag = global('client-certificate');
  const keyFlag = global('client-key');
  const insecure = flags.changed.has('insecure-skip-tls-verify')
    ? flags.bool('insecure-skip-tls-verify')
    : c['insecure-skip-tls-verify'] === true;
  const connection: Connection = { server, insecureSkipTlsVerify: insecure };
  const tlsServerName = global('tls-server-name') || c['tls-server-name'];
  if (tlsServerName) connection.tlsServerName = tlsServerName;
  const ca = caFlag
    ? await read(caFlag, undefined)
    : await read(c['certificate-authority'], c['certificate-authority-data']);
  if (ca !== undefined && !insecure) connection.caPEM = ca;
  const token = global('token') || user.token || (await read(user.tokenFile, undefined))?.trim();
  const cert = certFlag
    ? await read(certFlag, undefined)
    : await read(user['client-certificate'], user['client-certificate-data']);
  const key = keyFlag
    ? await read(keyFlag, undefined)
    : await read(user['client-key'], user['client-key-data']);
  if (token) connection.token = token;
  if (cert !== undefined) connection.clientCertPEM = cert;
  if (key !== undefined) connection.clientKeyPEM = key;
  const username = global('username') || user.username;
  const password = global('password') || user.password;
  if (username) connection.username = username;
  if (password) connection.password = password;
  const asUser = global('as') || user.as || '';
  const asGroups =
    !flags.shadowed.has('as-group') && flags.strings('as-group').length > 0
      ? flags.strings('as-group')
      : (user['as-groups'] ?? []);
  const asUid = global('as-uid') || user['as-uid'] || '';
  if (asUser !== '' || asGroups.length > 0 || asUid !== '')
    connection.impersonate = {
      groups: asGroups,
      ...(asUser !== '' ? { user: asUser } : {}),
      ...(asUid !== '' ? { uid: asUid } : {}),
    };
  const namespaceFlag = global('namespace');
  return {
    contextName,
    clusterName,
    userName,
    namespace: namespaceFlag || context?.namespace || 'default',
    namespaceExplicit: namespaceFlag !== '',
    connection,
  };
}
