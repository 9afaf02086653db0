/**
 * The sandbox's own settings: `--profile` (the naming profile), `--kubeconfig`
 * (where the admin's kubeconfig is written), `--storage` (memory, dexie or
 * etcd) and `--compaction-interval` (how long the change history is kept).
 */

import { isProfileName } from '../../../machinery/naming';
import { parseGoDuration } from '../../../machinery/go-duration';
import type { NodeHostOptions } from '../host';
import { invalid, type FlagDecl, type RawFlags } from './flags';

export const sandboxFlags = {
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
  'compaction-interval': {
    kind: 'string',
    type: 'duration',
    section: 'sandbox',
    usage:
      'How long the change history is kept before it is compacted (watches from older versions get 410 Gone).',
    default: '5m0s',
  },
} as const satisfies Record<string, FlagDecl>;

type SandboxFlag = keyof typeof sandboxFlags;

/** `--profile`, `--kubeconfig` and `--storage` into `options`. */
export function sandboxOf(raw: RawFlags<SandboxFlag>, options: NodeHostOptions): void {
  const s = raw.strings;
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
}

/** `--compaction-interval`: a Go duration of at least a second. */
export function compactionIntervalOf(raw: RawFlags<SandboxFlag>, options: NodeHostOptions): void {
  const s = raw.strings;
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
}
