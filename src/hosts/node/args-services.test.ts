/** The service flags of `parseHostArgs`: `--service-cluster-ip-range`, `--service-node-port-range`, `--advertise-address`. */

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

describe('service flags', () => {
  it('passes valid values through', () => {
    expect(
      parseHostArgs([
        '--service-cluster-ip-range=10.96.0.0/16,fd00::/112',
        '--service-node-port-range',
        '31000-31999',
        '--advertise-address=10.1.2.3',
      ]),
    ).toMatchObject({
      serviceClusterIPRange: '10.96.0.0/16,fd00::/112',
      serviceNodePortRange: '31000-31999',
      advertiseAddress: '10.1.2.3',
    });
  });

  it.each([
    [['--service-cluster-ip-range=nope'], 'service-cluster-ip-range[0] is not a valid cidr'],
    [['--service-cluster-ip-range=10.0.0.0/24,nope'], 'service-cluster-ip-range[1] is not an ip net'],
    [
      ['--service-cluster-ip-range=10.0.0.0/8'],
      'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12',
    ],
    [
      ['--service-cluster-ip-range=10.0.0.0/24,10.1.0.0/24'],
      '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family',
    ],
    [
      ['--service-cluster-ip-range=10.0.0.0/24,fd00::/112,10.2.0.0/24'],
      '--service-cluster-ip-range must not contain more than two entries',
    ],
    [
      ['--service-node-port-range=abc'],
      'invalid argument "abc" for "--service-node-port-range" flag: unable to parse port range: abc: strconv.Atoi: parsing "abc": invalid syntax, expected hyphen in port range or a single port number',
    ],
    [
      ['--service-node-port-range=32000-31000'],
      'invalid argument "32000-31000" for "--service-node-port-range" flag: end port cannot be less than start port: 32000-31000',
    ],
    [
      ['--service-node-port-range=30000-70000'],
      'invalid argument "30000-70000" for "--service-node-port-range" flag: the port range cannot be greater than 65535: 30000-70000',
    ],
    [
      ['--advertise-address=host'],
      'invalid argument "host" for "--advertise-address" flag: failed to parse IP: "host"',
    ],
  ])('%j is refused', (argv, message) => {
    expect(failure(argv)).toBe(message);
  });
});
