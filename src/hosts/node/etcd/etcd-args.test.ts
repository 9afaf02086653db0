/** The etcd flags of `parseHostArgs`: `--storage etcd` needs `--etcd-servers`; the real messages for bad values. */

import { describe, expect, it } from 'vitest';
import { FlagError, parseHostArgs } from '../args';

function failure(argv: string[]): string {
  try {
    parseHostArgs(argv);
  } catch (e) {
    if (e instanceof FlagError) return e.message;
    throw e;
  }
  throw new Error('expected a FlagError');
}

describe('--etcd-* flags', () => {
  it.each([
    {
      argv: ['--storage', 'etcd', '--etcd-servers=http://127.0.0.1:2379,http://127.0.0.1:22379'],
      want: { servers: ['http://127.0.0.1:2379', 'http://127.0.0.1:22379'] },
    },
    {
      argv: [
        '--storage=etcd',
        '--etcd-servers',
        'https://etcd:2379',
        '--etcd-prefix=/orch',
        '--etcd-cafile=/ca.pem',
        '--etcd-certfile=/c.pem',
        '--etcd-keyfile=/k.pem',
      ],
      want: {
        servers: ['https://etcd:2379'],
        prefix: '/orch',
        caFile: '/ca.pem',
        certFile: '/c.pem',
        keyFile: '/k.pem',
      },
    },
  ])('$argv', ({ argv, want }) => {
    const options = parseHostArgs(argv);
    expect(options.storage).toBe('etcd');
    expect(options.etcd).toEqual(want);
  });

  it('reads --etcd-compaction-interval as a Go duration (0 turns compaction off)', () => {
    expect(parseHostArgs(['--etcd-compaction-interval=1m30s']).etcdCompactionIntervalMs).toBe(90_000);
    expect(parseHostArgs(['--etcd-compaction-interval=0']).etcdCompactionIntervalMs).toBe(0);
  });

  it.each([
    { argv: ['--storage=etcd'], message: '--etcd-servers must be specified' },
    { argv: ['--storage=etcd', '--etcd-servers='], message: '--etcd-servers must be specified' },
    {
      argv: ['--storage=etcd', '--etcd-servers=ftp://x:1'],
      message: 'unsupported scheme "ftp" in ftp://x:1',
    },
    {
      argv: ['--etcd-compaction-interval=soon'],
      message: 'invalid argument "soon" for "--etcd-compaction-interval" flag: time: invalid duration "soon"',
    },
    {
      argv: ['--storage=redis'],
      message: 'invalid argument "redis" for "--storage" flag: must be dexie, memory or etcd',
    },
  ])('refuses $argv', ({ argv, message }) => {
    expect(failure(argv)).toBe(message);
  });
});
