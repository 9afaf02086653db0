import { describe, expect, it } from 'vitest';
import { parseHostArgs } from '../args';

const files: Record<string, string> = {
  '/ca.crt': 'CERT',
  '/ca.key': 'KEY',
  '/s.crt': 'S-CERT',
  '/s.key': 'S-KEY',
};
const read = (path: string): string => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
  return text;
};

describe('cluster signing flags', () => {
  it('reads the single pair and the duration', () => {
    const o = parseHostArgs(
      [
        '--cluster-signing-cert-file=/ca.crt',
        '--cluster-signing-key-file',
        '/ca.key',
        '--cluster-signing-duration=1h30m',
      ],
      read,
    );
    expect(o.clusterSigning).toEqual({
      durationMs: 90 * 60_000,
      default: { certFile: '/ca.crt', keyFile: '/ca.key', certPEM: 'CERT', keyPEM: 'KEY' },
    });
  });

  it('reads per-signer pairs', () => {
    const o = parseHostArgs(
      [
        '--cluster-signing-kubelet-serving-cert-file=/s.crt',
        '--cluster-signing-kubelet-serving-key-file=/s.key',
      ],
      read,
    );
    expect(o.clusterSigning?.signers?.kubeletServing?.certPEM).toBe('S-CERT');
    expect(o.clusterSigning?.default).toBeUndefined();
  });

  it.each([
    [
      ['--cluster-signing-duration=5d'],
      'invalid argument "5d" for "--cluster-signing-duration" flag: time: unknown unit "d" in duration "5d"',
    ],
    [
      ['--cluster-signing-duration=10'],
      'invalid argument "10" for "--cluster-signing-duration" flag: time: missing unit in duration "10"',
    ],
    [
      ['--cluster-signing-cert-file=/ca.crt'],
      '"cluster-signing": cannot specify key without cert or cert without key',
    ],
    [
      ['--cluster-signing-legacy-unknown-key-file=/s.key'],
      '"cluster-signing-legacy-unknown": cannot specify key without cert or cert without key',
    ],
    [
      [
        '--cluster-signing-cert-file=/ca.crt',
        '--cluster-signing-key-file=/ca.key',
        '--cluster-signing-kubelet-client-cert-file=/s.crt',
        '--cluster-signing-kubelet-client-key-file=/s.key',
      ],
      'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time',
    ],
    [
      ['--cluster-signing-cert-file=/nope.crt', '--cluster-signing-key-file=/ca.key'],
      'error reading CA cert file "/nope.crt": open /nope.crt: no such file or directory',
    ],
  ])('refuses %j', (argv, message) => {
    expect(() => parseHostArgs(argv, read)).toThrow(message);
  });
});
