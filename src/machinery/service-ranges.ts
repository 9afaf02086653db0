/**
 * IP addresses, CIDRs and port ranges as the real server's service flags
 * read them (`--service-cluster-ip-range`, `--service-node-port-range`):
 * addresses as big integers so one allocator serves IPv4 and IPv6, Go's
 * lenient parsing (`ParseIPSloppy` keeps leading zeros in IPv4 octets) and
 * the flag errors word for word.
 */

export type IPFamily = 'IPv4' | 'IPv6';

export interface Cidr {
  family: IPFamily;
  /** The network address. */
  base: bigint;
  prefix: number;
  /** Address width: 32 or 128. */
  bits: number;
  /** As given back by Go's `IPNet.String()`, e.g. `10.0.0.0/24`. */
  text: string;
}

export interface PortRange {
  base: number;
  size: number;
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = (n << 8n) | BigInt(Number(p));
  }
  return n;
}

function parseIPv6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    const words = s.split(':');
    for (let i = 0; i < words.length; i++) {
      const w = words[i] ?? '';
      if (i === words.length - 1 && w.includes('.')) {
        const v4 = parseIPv4(w);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(w)) out.push(parseInt(w, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0] ?? '');
  const tail = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  let n = 0n;
  for (const g of [...head, ...new Array<number>(missing).fill(0), ...tail]) n = (n << 16n) | BigInt(g);
  return n;
}

/** An address and its family, or undefined for text that is not one. */
export function parseIP(text: string): { family: IPFamily; value: bigint } | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return { family: 'IPv4', value: v4 };
  if (!text.includes(':')) return undefined;
  const v6 = parseIPv6(text);
  if (v6 === undefined) return undefined;
  // An IPv4-mapped IPv6 address is IPv4 to Go.
  if (v6 >> 32n === 0xffffn) return { family: 'IPv4', value: v6 & 0xffffffffn };
  return { family: 'IPv6', value: v6 };
}

/** Go's `IP.String()`: dotted quad, or the shortest IPv6 form. */
export function formatIP(family: IPFamily, value: bigint): string {
  if (family === 'IPv4') return [24n, 16n, 8n, 0n].map((s) => String(Number((value >> s) & 0xffn))).join('.');
  const groups: number[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(Number((value >> s) & 0xffffn));
  // The longest run of two or more zero groups becomes `::` (the first such run on a tie).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (g: number[]) => g.map((x) => x.toString(16)).join(':');
  if (best < 0) return hex(groups);
  return `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}

/** Go's `ParseCIDRSloppy`; undefined when the text is not a CIDR. */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(text.slice(0, slash));
  const prefixText = text.slice(slash + 1);
  if (ip === undefined || !/^\d{1,3}$/.test(prefixText)) return undefined;
  const bits = ip.family === 'IPv4' ? 32 : 128;
  const prefix = Number(prefixText);
  if (prefix > bits) return undefined;
  const hostBits = BigInt(bits - prefix);
  const base = (ip.value >> hostBits) << hostBits;
  return { family: ip.family, base, prefix, bits, text: `${formatIP(ip.family, base)}/${prefix}` };
}

/** The real server's default `--service-cluster-ip-range`. */
export const defaultServiceClusterIPRange = '10.0.0.0/24';
/** The real server's default `--service-node-port-range`. */
export const defaultServiceNodePortRange: PortRange = { base: 30000, size: 2768 };

/**
 * `--service-cluster-ip-range`: one CIDR, or two of different families (dual-stack), each no larger than the
 * allocator's bitmap allows (20 host bits). Throws with the real start-up error.
 */
export function parseServiceClusterIPRanges(text: string): Cidr[] {
  const entries = text === '' ? [] : text.split(',');
  if (entries.length === 0) return [parseCidr(defaultServiceClusterIPRange) as Cidr];
  const errors: string[] = [];
  const cidrs: Cidr[] = [];
  for (const [i, entry] of entries.entries()) {
    if (i > 1) break;
    const cidr = parseCidr(entry.trim());
    if (cidr === undefined)
      throw new Error(
        i === 0
          ? 'service-cluster-ip-range[0] is not a valid cidr'
          : 'service-cluster-ip-range[1] is not an ip net',
      );
    cidrs.push(cidr);
  }
  if (entries.length > 2) errors.push('--service-cluster-ip-range must not contain more than two entries');
  for (const cidr of cidrs)
    if (cidr.bits - cidr.prefix > 20)
      errors.push(
        `specified --service-cluster-ip-range is too large; for ${cidr.bits}-bit addresses, the mask must be >= ${cidr.bits - 20}`,
      );
  if (cidrs.length === 2 && cidrs[0]?.family === cidrs[1]?.family)
    errors.push(
      '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family',
    );
  if (errors.length === 1) throw new Error(errors[0]);
  if (errors.length > 1) throw new Error(`[${errors.join(', ')}]`);
  return cidrs;
}

/** apimachinery's `PortRange.Set` (`min-max` or one port), with its error texts. */
export function parsePortRange(text: string): PortRange {
  const value = text.trim();
  if (value === '') return { base: 0, size: 0 };
  const atoi = (s: string): number => {
    if (!/^[+-]?\d+$/.test(s)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
    return Number(s);
  };
  const hyphen = value.indexOf('-');
  if (hyphen < 0) {
    let port: number;
    try {
      port = atoi(value);
    } catch (e) {
      throw new Error(
        `unable to parse port range: ${value}: ${(e as Error).message}, expected hyphen in port range or a single port number`,
      );
    }
    if (port < 0 || port > 65535) throw new Error('the port range should between 0 and 65535');
    return { base: port, size: 1 };
  }
  let low: number;
  let high: number;
  try {
    low = atoi(value.slice(0, hyphen));
    high = atoi(value.slice(hyphen + 1));
  } catch (e) {
    throw new Error(`unable to parse port range: ${value}: ${(e as Error).message}`);
  }
  if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${value}`);
  if (high < low) throw new Error(`end port cannot be less than start port: ${value}`);
  return { base: low, size: 1 + high - low };
}

export function formatPortRange(range: PortRange): string {
  return range.size === 0 ? '' : `${range.base}-${range.base + range.size - 1}`;
}
