/**
 * The etcd flags (`--etcd-servers`, `--etcd-prefix`, the client TLS files,
 * `--etcd-compaction-interval`): where `--storage etcd` keeps its state (see
 * src/hosts/node/etcd/), validated as the real EtcdOptions are.
 */

import { parseGoDuration } from '../../../machinery/go-duration';
import { parseEtcdServers } from '../etcd/options';
import type { NodeHostOptions } from '../host';
import { FlagError, invalid, type FlagDecl, type RawFlags } from './flags';

export const etcdFlags = {
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
} as const satisfies Record<string, FlagDecl>;

type EtcdFlag = keyof typeof etcdFlags;

/** `--etcd-*`: where `--storage etcd` keeps its state (see src/hosts/node/etcd/). */
export function etcdOf(raw: RawFlags<EtcdFlag>, options: NodeHostOptions): void {
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
