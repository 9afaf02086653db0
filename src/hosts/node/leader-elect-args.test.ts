/** The leader-election flags of `parseHostArgs`: off unless asked, the durations as Go durations, the real checks. */

import { describe, expect, it } from 'vitest';
import { FlagError, parseHostArgs } from './args';

function failure(argv: string[]): string {
  try {
    parseHostArgs(argv);
  } catch (e) {
    if (e instanceof FlagError) return e.message;
    throw e;
  }
  throw new Error('expected a FlagError');
}

describe('--leader-elect flags', () => {
  it.each([
    { argv: [], want: undefined },
    { argv: ['--leader-elect'], want: { leaderElect: true } },
    { argv: ['--leader-elect=false'], want: { leaderElect: false } },
    {
      argv: [
        '--leader-elect',
        '--leader-elect-lease-duration=4s',
        '--leader-elect-renew-deadline',
        '3s',
        '--leader-elect-retry-period=500ms',
      ],
      want: { leaderElect: true, leaseDurationMs: 4000, renewDeadlineMs: 3000, retryPeriodMs: 500 },
    },
  ])('$argv', ({ argv, want }) => {
    expect(parseHostArgs(argv).leaderElection).toEqual(want);
  });

  it.each([
    {
      argv: ['--leader-elect-lease-duration=soon'],
      want: 'invalid argument "soon" for "--leader-elect-lease-duration" flag: time: invalid duration "soon"',
    },
    {
      argv: ['--leader-elect', '--leader-elect-lease-duration=10s'],
      want: 'leaderElection.leaseDuration: Invalid value: "10s": LeaseDuration must be greater than RenewDeadline',
    },
    {
      argv: ['--leader-elect', '--leader-elect-renew-deadline=2s'],
      want: 'leaderElection.renewDeadline: Invalid value: "2s": renewDeadline must be greater than retryPeriod*JitterFactor',
    },
  ])('refuses $argv', ({ argv, want }) => {
    expect(failure(argv)).toBe(want);
  });
});
