/** Addresses, CIDRs and port ranges as the service flags and allocators read them. */

import { describe, expect, it } from 'vitest';
import { formatIP, parseCidr, parseIP, parsePortRange, parseServiceClusterIPRanges } from './service-ranges';

describe('service ranges', () => {
  it('parses and prints addresses as Go does', () => {
    expect(parseIP('10.0.0.1')).toEqual({ family: 'IPv4', value: 0x0a000001n });
    expect(parseIP('::ffff:10.0.0.1')).toEqual({ family: 'IPv4', value: 0x0a000001n });
    expect(parseIP('10.0.0')).toBeUndefined();
    expect(parseIP('fd00::1:0:0:5')?.family).toBe('IPv6');
    const v6 = parseIP('fd00:0:0:0:0:0:0:5');
    expect(v6 && formatIP('IPv6', v6.value)).toBe('fd00::5');
    expect(formatIP('IPv6', 0n)).toBe('::');
  });

  it('masks a CIDR to its network', () => {
    expect(parseCidr('10.0.0.7/24')?.text).toBe('10.0.0.0/24');
    expect(parseCidr('fd00::9/112')?.text).toBe('fd00::/112');
    expect(parseCidr('10.0.0.0/33')).toBeUndefined();
  });

  it('defaults the cluster range to 10.0.0.0/24', () => {
    expect(parseServiceClusterIPRanges('').map((c) => c.text)).toEqual(['10.0.0.0/24']);
  });

  it('reads port ranges as PortRange.Set', () => {
    expect(parsePortRange('30000-32767')).toEqual({ base: 30000, size: 2768 });
    expect(parsePortRange('8080')).toEqual({ base: 8080, size: 1 });
    expect(() => parsePortRange('70000')).toThrow('the port range should between 0 and 65535');
  });
});
