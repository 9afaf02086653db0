/**
 * Health, graceful termination and metrics: `--livez-grace-period`,
 * `--shutdown-delay-duration`, `--shutdown-send-retry-after` (the real
 * server's generic run options) and `--show-hidden-metrics-for-version`
 * (its metrics options).
 */

import { parseGoDuration } from '../../../machinery/go-duration';
import { serverVersion, showHiddenMetricsError } from '../../../server/index';
import type { NodeHostOptions } from '../host';
import { invalid, type FlagDecl, type RawFlags } from './flags';

export const lifecycleFlags = {
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
} as const satisfies Record<string, FlagDecl>;

type LifecycleFlag = keyof typeof lifecycleFlags;

/**
 * `--livez-grace-period`, `--shutdown-delay-duration`, `--shutdown-send-retry-after` and
 * `--show-hidden-metrics-for-version`, validated as the real server's run and metrics options are.
 */
export function lifecycleOf(raw: RawFlags<LifecycleFlag>, options: NodeHostOptions): string[] {
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
