/**
 * Connection options of the etcd backend, as the real server's flags give
 * them (`--etcd-servers`, `--etcd-prefix`, `--etcd-cafile`, `--etcd-certfile`,
 * `--etcd-keyfile`), and the client built from them. TLS is used when a CA
 * file is given; a client certificate needs both the cert and the key file.
 */

import { readFileSync } from 'node:fs';
import { Etcd3, type IOptions } from 'etcd3';

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

export function createEtcdClient(options: EtcdOptions): Etcd3 {
  const client: IOptions = { hosts: options.servers, dialTimeout: 5000 };
  if (options.caFile !== undefined) {
    client.credentials = { rootCertificate: readFileSync(options.caFile) };
    if (options.certFile !== undefined && options.keyFile !== undefined) {
      client.credentials.certChain = readFileSync(options.certFile);
      client.credentials.privateKey = readFileSync(options.keyFile);
    }
  }
  return new Etcd3(client);
}
