/**
 * Credentials for webhook calls, from the kubeconfig named by the plugin's
 * `WebhookAdmissionConfiguration` (`kubeConfigFile`, or the profile's
 * `<word>ConfigFile`): a `users` entry named after the target — the
 * service DNS name (`name.namespace.svc`, `:port` added when not 443) or
 * the URL's host:port —, then `*.`-prefixed wildcards dropping one label
 * at a time, then `*`. No entry: the call carries no credentials.
 */

import { yamlLibrary } from '../../machinery/decode/yaml-library';
import { resolveAgainstKubeconfig } from '../../machinery/kubeconfig-files';
import type { WebhookClientConfig, WebhookCredentials } from '../webhook-transport';

export interface CredentialsResolver {
  resolve(clientConfig: WebhookClientConfig): WebhookCredentials | undefined;
}

export const noCredentials: CredentialsResolver = { resolve: () => undefined };

/** A kubeconfig `users[].user` entry, as far as webhook calls use it. */
export interface KubeconfigUser {
  token?: string;
  tokenFile?: string;
  username?: string;
  password?: string;
  'client-certificate-data'?: string;
  'client-key-data'?: string;
  'client-certificate'?: string;
  'client-key'?: string;
}

/** The kubeconfig file the configuration names, if any (`kubeConfigFile` as upstream, or `orchConfigFile`). */
export function kubeconfigPath(config: unknown): string | undefined {
  if (config === null || typeof config !== 'object') return undefined;
  for (const [k, v] of Object.entries(config as Record<string, unknown>))
    if (/^[a-z]+ConfigFile$/i.test(k) && typeof v === 'string' && v !== '') return v;
  return undefined;
}

export function credentialsResolver(
  config: unknown,
  loadFile: (path: string) => string,
): CredentialsResolver {
  const path = kubeconfigPath(config);
  if (path === undefined) return noCredentials;
  const users = new Map<string, WebhookCredentials>();
  const text = loadFile(path);
  // Loaded by the host before the chain is built when plugins have configurations (the browser has no files).
  const doc = yamlLibrary.get().parse(text) as { users?: { name?: string; user?: KubeconfigUser }[] } | null;
  for (const entry of doc?.users ?? []) {
    if (typeof entry.name !== 'string') continue;
    // Files a kubeconfig names are relative to the kubeconfig's own directory, as client-go reads them.
    users.set(
      entry.name,
      userCredentials(entry.user ?? {}, (ref) => loadFile(resolveAgainstKubeconfig(path, ref))),
    );
  }
  return {
    resolve(clientConfig) {
      const target = targetName(clientConfig);
      if (target === undefined) return undefined;
      const exact = users.get(target);
      if (exact !== undefined) return exact;
      const labels = target.split('.');
      for (let i = 1; i < labels.length; i++) {
        const wildcard = users.get(`*.${labels.slice(i).join('.')}`);
        if (wildcard !== undefined) return wildcard;
      }
      return users.get('*');
    },
  };
}

/** The name a `users` entry must carry for this target. */
export function targetName(clientConfig: WebhookClientConfig): string | undefined {
  if (clientConfig.service !== undefined) {
    const s = clientConfig.service;
    const port = s.port ?? 443;
    return `${s.name}.${s.namespace}.svc${port === 443 ? '' : `:${port}`}`;
  }
  if (clientConfig.url === undefined) return undefined;
  try {
    const u = new URL(clientConfig.url);
    return `${u.hostname}:${u.port === '' ? '443' : u.port}`;
  } catch {
    return undefined;
  }
}

/** A kubeconfig user's credentials; files it names (token, certificate, key) are read through `loadFile`. */
export function userCredentials(u: KubeconfigUser, loadFile: (path: string) => string): WebhookCredentials {
  const base64 = (text: string) => btoa(text);
  const out: WebhookCredentials = {};
  if (u.token !== undefined) out.token = u.token;
  else if (u.tokenFile !== undefined) out.token = loadFile(u.tokenFile).trim();
  if (u.username !== undefined) out.username = u.username;
  if (u.password !== undefined) out.password = u.password;
  if (u['client-certificate-data'] !== undefined) out.clientCertificateData = u['client-certificate-data'];
  else if (u['client-certificate'] !== undefined)
    out.clientCertificateData = base64(loadFile(u['client-certificate']));
  if (u['client-key-data'] !== undefined) out.clientKeyData = u['client-key-data'];
  else if (u['client-key'] !== undefined) out.clientKeyData = base64(loadFile(u['client-key']));
  return out;
}
