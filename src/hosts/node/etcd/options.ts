/**
 * Connection options of the etcd backend, as the real server's flags give
 * them (`--etcd-servers`, `--etcd-prefix`, `--etcd-cafile`, `--etcd-certfile`,
 * `--etcd-keyfile`), and the client built from them (kv-client.ts). TLS is
 * used when a CA file is given; a client certificate needs both the cert and
 * the key file.
 */

import { readFileSync } from 'node:fs';
import { EtcdKvClient } from './kv-client';

export interface EtcdOptions {
  servers: string[];
  /** Key prefix of every row (default `/registry`, as the real server's). */
  prefix?: string;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export const defaultEtcdPrefix = '/registry';

/** Checks a `--etcd-servers` value the way the real server does; returns the URLs. */
export function parseEtcdServers(value: string): string[] {
  const servers = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (servers.length === 0) throw new Error('--etcd-servers must be specified');
  for (const server of servers) {
    let url: URL;
    try {
      url = new URL(server);
    } catch {
      throw new Error(`parse "${server}": invalid URI for request`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`unsupported scheme "${url.protocol.slice(0, -1)}" in ${server}`);
  }
  return servers;
}

const dialTimeoutMs = 5000;

/** The store's client (kv-client.ts) on the given servers, with the given credentials. */
export function createKvClient(options: EtcdOptions): EtcdKvClient {
  const withClientCert = options.certFile !== undefined && options.keyFile !== undefined;
  return new EtcdKvClient({
    servers: options.servers,
    dialTimeoutMs,
    ...(options.caFile !== undefined
      ? {
          tls: {
            ca: readFileSync(options.caFile),
            ...(withClientCert
              ? {
                  cert: readFileSync(options.certFile as string),
                  key: readFileSync(options.keyFile as string),
                }
              : {}),
          },
        }
      : {}),
  });
}
