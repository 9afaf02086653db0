/**
 * The subject and alternative names of a PKCS#10 certificate request, read
 * from its DER just far enough for kubectl's CSR describer (the
 * CertificationRequestInfo's Name, and the extension request's SANs).
 */

export interface CsrSubject {
  commonName: string;
  serialNumber: string;
  lists: Record<string, string[]>;
  dnsNames: string[];
  emails: string[];
  ips: string[];
  uris: string[];
}

interface Tlv {
  tag: number;
  start: number;
  end: number;
}

function read(der: Uint8Array, offset: number): Tlv {
  const tag = der[offset] as number;
  let length = der[offset + 1] as number;
  let start = offset + 2;
  if (length & 0x80) {
    const n = length & 0x7f;
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + (der[start + i] as number);
    start += n;
  }
  return { tag, start, end: start + length };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let o = parent.start; o < parent.end;) {
    const t = read(der, o);
    out.push(t);
    o = t.end;
  }
  return out;
}

function oid(der: Uint8Array, t: Tlv): string {
  const bytes = der.slice(t.start, t.end);
  const parts = [Math.floor((bytes[0] as number) / 40), (bytes[0] as number) % 40];
  let value = 0;
  for (const b of bytes.slice(1)) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

const text = (der: Uint8Array, t: Tlv) => new TextDecoder().decode(der.slice(t.start, t.end));

const names: Record<string, string> = {
  '2.5.4.10': 'Organization',
  '2.5.4.11': 'Organizational Unit',
  '2.5.4.6': 'Country',
  '2.5.4.7': 'Locality',
  '2.5.4.8': 'Province',
  '2.5.4.9': 'StreetAddress',
  '2.5.4.17': 'PostalCode',
};

/** Parses a PEM or DER CSR; undefined when it is not one. */
export function csrSubject(pemOrDer: Uint8Array): CsrSubject | undefined {
  try {
    let der = pemOrDer;
    const asText = new TextDecoder().decode(pemOrDer);
    if (asText.includes('-----BEGIN')) {
      const b64 = asText.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
      der = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    }
    const top = read(der, 0);
    const info = children(der, top)[0] as Tlv;
    const [, subject, , attributes] = children(der, info);
    const out: CsrSubject = {
      commonName: '',
      serialNumber: '',
      lists: {},
      dnsNames: [],
      emails: [],
      ips: [],
      uris: [],
    };
    for (const set of children(der, subject as Tlv))
      for (const atv of children(der, set)) {
        const [id, value] = children(der, atv) as [Tlv, Tlv];
        const o = oid(der, id);
        if (o === '2.5.4.3') out.commonName = text(der, value);
        else if (o === '2.5.4.5') out.serialNumber = text(der, value);
        else if (names[o] !== undefined) (out.lists[names[o]] ??= []).push(text(der, value));
      }
    if (attributes !== undefined && attributes.tag === 0xa0)
      for (const attr of children(der, attributes)) {
        const [id, values] = children(der, attr) as [Tlv, Tlv];
        if (oid(der, id) !== '1.2.840.113549.1.9.14') continue;
        for (const exts of children(der, values))
          for (const ext of children(der, exts)) {
            const parts = children(der, ext);
            if (oid(der, parts[0] as Tlv) !== '2.5.29.17') continue;
            const octets = parts[parts.length - 1] as Tlv;
            const seq = read(der, octets.start);
            for (const gn of children(der, seq)) {
              const tag = gn.tag & 0x1f;
              if (tag === 2) out.dnsNames.push(text(der, gn));
              else if (tag === 1) out.emails.push(text(der, gn));
              else if (tag === 6) out.uris.push(text(der, gn));
              else if (tag === 7) out.ips.push([...der.slice(gn.start, gn.end)].join('.'));
            }
          }
      }
    return out;
  } catch {
    return undefined;
  }
}
