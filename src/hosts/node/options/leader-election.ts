/**
 * Leader election: kube-controller-manager's `--leader-elect` and its
 * durations (the controllers run in this process), validated as the
 * controller manager's LeaderElectionConfiguration is.
 */

import { formatGoDuration, parseGoDuration } from '../../../machinery/go-duration';
import type { NodeHostOptions } from '../host';
import { invalid, type FlagDecl, type RawFlags } from './flags';

export const leaderElectionFlags = {
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
} as const satisfies Record<string, FlagDecl>;

type LeaderElectionFlag = keyof typeof leaderElectionFlags;

/**
 * `--leader-elect` and its durations, validated as the controller manager's LeaderElectionConfiguration is.
 * Unset, the host decides (see host.ts): on with `--storage etcd`, as the real controller manager's default; off
 * with the single-process stores, where no other replica can run controllers and a restart would wait out its lease.
 */
export function leaderElectionOf(raw: RawFlags<LeaderElectionFlag>, options: NodeHostOptions): string[] {
  const s = raw.strings;
  const elect = raw.bools['leader-elect'];
  const durations = {
    leaseDurationMs: 'leader-elect-lease-duration',
    renewDeadlineMs: 'leader-elect-renew-deadline',
    retryPeriodMs: 'leader-elect-retry-period',
  } as const;
  const config: NonNullable<NodeHostOptions['leaderElection']> = { leaderElect: elect ?? false };
  for (const [key, flag] of Object.entries(durations) as [keyof typeof durations, LeaderElectionFlag][]) {
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
