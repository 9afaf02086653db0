/**
 * The key usage strings of the certificates API and what each becomes in an
 * issued certificate: a key usage bit or an extended key usage OID, as the
 * real signing policy maps them (`signing` and `digital signature` are the
 * same bit; `s/mime` is email protection). Extended usages come out sorted
 * by Go's enumeration order, as the real signer sorts them.
 */

import { goQuote } from '../../machinery/go-format';

const keyUsageBits: Record<string, number> = {
  signing: 1,
  'digital signature': 1,
  'content commitment': 2,
  'key encipherment': 4,
  'data encipherment': 8,
  'key agreement': 16,
  'cert sign': 32,
  'crl sign': 64,
  'encipher only': 128,
  'decipher only': 256,
};

/** OIDs in Go's `x509.ExtKeyUsage` order (the order the issued extension lists them in). */
const extendedUsageOrder: readonly [string, string][] = [
  ['any', '2.5.29.37.0'],
  ['server auth', '1.3.6.1.5.5.7.3.1'],
  ['client auth', '1.3.6.1.5.5.7.3.2'],
  ['code signing', '1.3.6.1.5.5.7.3.3'],
  ['email protection', '1.3.6.1.5.5.7.3.4'],
  ['s/mime', '1.3.6.1.5.5.7.3.4'],
  ['ipsec end system', '1.3.6.1.5.5.7.3.5'],
  ['ipsec tunnel', '1.3.6.1.5.5.7.3.6'],
  ['ipsec user', '1.3.6.1.5.5.7.3.7'],
  ['timestamping', '1.3.6.1.5.5.7.3.8'],
  ['ocsp signing', '1.3.6.1.5.5.7.3.9'],
  ['microsoft sgc', '1.3.6.1.4.1.311.10.3.3'],
  ['netscape sgc', '2.16.840.1.113730.4.1'],
];
const extendedUsageOids = new Map(extendedUsageOrder);
const oidRank = new Map(extendedUsageOrder.map(([, oid], i) => [oid, i]));

export interface CertificateUsages {
  /** Key usage bits (@peculiar/x509's `KeyUsageFlags` values); 0 means no key usage extension. */
  keyUsage: number;
  /** Extended key usage OIDs, each once, in Go's order. */
  extendedKeyUsages: string[];
}

/** Go's `keyUsagesFromStrings`: throws with its message when a usage is not known. */
export function certificateUsages(usages: readonly string[]): CertificateUsages {
  let keyUsage = 0;
  const extended = new Set<string>();
  const unrecognized: string[] = [];
  for (const usage of usages) {
    const bit = keyUsageBits[usage];
    const oid = extendedUsageOids.get(usage);
    if (bit !== undefined) keyUsage |= bit;
    else if (oid !== undefined) extended.add(oid);
    else unrecognized.push(usage);
  }
  if (unrecognized.length > 0)
    throw new Error(`unrecognized usage values: [${unrecognized.map(goQuote).join(' ')}]`);
  const extendedKeyUsages = [...extended].sort((a, b) => (oidRank.get(a) ?? 0) - (oidRank.get(b) ?? 0));
  return { keyUsage, extendedKeyUsages };
}

/** Go's `sets.String.Equal` over usage lists: the same members, duplicates ignored. */
export function sameUsageSet(usages: readonly string[], wanted: readonly string[]): boolean {
  const a = new Set(usages);
  const b = new Set(wanted);
  return a.size === b.size && [...a].every((u) => b.has(u));
}

/** Go's `sets.String.List()` printed with `%v`: sorted, space-separated, in brackets. */
export function usageSetText(usages: readonly string[]): string {
  return `[${[...new Set(usages)].sort().join(' ')}]`;
}
