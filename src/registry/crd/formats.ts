/**
 * String formats a custom resource schema may declare, checked as the real
 * server's OpenAPI validator (kube-openapi's default format registry) checks
 * them. A string failing its format is reported as "must be of type
 * <format>". Unknown formats are not checked, nor are number formats
 * (int32, int64, float, double), which the real validator does not
 * range-check either. The patterns here are fixed, so JavaScript RegExp is
 * safe for them; user patterns go through RE2 elsewhere.
 */

const uuidRe = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3Re = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4Re = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5Re = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const base64Re = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const dateRe = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimeRe =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const goDurationRe = /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const looseDurationRe = /(\d+)\s*([A-Za-zµ]+)/g;
const durationUnits = [
  ['ns', 'nanoseconds'],
  ['us', 'microseconds'],
  ['ms', 'milliseconds'],
  ['s', 'seconds'],
  ['m', 'minutes'],
  ['h', 'hours'],
  ['d', 'days'],
  ['w', 'weeks'],
];
const hostnameLabelRe = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const macRe = /^(?:[0-9a-fA-F]{2}(?:[:-][0-9a-fA-F]{2}){5,19}|[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){2,9})$/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [
    31,
    y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return d <= (days[m - 1] ?? 0);
}

function isDate(s: string): boolean {
  const m = dateRe.exec(s);
  return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isDateTime(s: string): boolean {
  const m = dateTimeRe.exec(s);
  if (m === null) return false;
  if (!validDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) < 24 && Number(m[5]) < 60 && (m[6] === undefined || Number(m[6]) < 60);
}

function isDuration(s: string): boolean {
  if (s === '0' || goDurationRe.test(s)) return true;
  for (const match of s.matchAll(looseDurationRe)) {
    const unit = (match[2] ?? '').toLowerCase();
    for (const variants of durationUnits)
      if (variants.some((v, i) => v === unit || (i === variants.length - 1 && unit.startsWith(v))))
        return true;
  }
  return false;
}

export function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

export function isIPv6(s: string): boolean {
  if (!s.includes(':')) return false;
  let text = s;
  let groupsAllowed = 8;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    if (!isIPv4(text.slice(lastColon + 1))) return false;
    text = `${text.slice(0, lastColon + 1)}0:0`;
    groupsAllowed = 8;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string): string[] => (h === '' ? [] : h.split(':'));
  const all = halves.flatMap(groups);
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? all.length < groupsAllowed : all.length === groupsAllowed;
}

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  return isIPv6(ip) && Number(bits) <= 128;
}

function isHostname(s: string): boolean {
  const name = s.endsWith('.') ? s.slice(0, -1) : s;
  return name.length > 0 && name.length <= 255 && name.split('.').every((l) => hostnameLabelRe.test(l));
}

const checks: Record<string, (s: string) => boolean> = {
  byte: (s) => base64Re.test(s.replace(/[\r\n]/g, '')),
  date: isDate,
  'date-time': isDateTime,
  datetime: isDateTime,
  duration: isDuration,
  uuid: (s) => uuidRe.test(s),
  uuid3: (s) => uuid3Re.test(s),
  uuid4: (s) => uuid4Re.test(s),
  uuid5: (s) => uuid5Re.test(s),
  email: (s) => /^[^@\s]+@[^@\s]+$/.test(s),
  hostname: isHostname,
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCIDR,
  mac: (s) => macRe.test(s),
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a URI may not hold
  uri: (s) => s !== '' && !/[\s\x00-\x1f\x7f]/.test(s),
  hexcolor: (s) => /^#?(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/.test(s),
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  ssn: (s) => /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  isbn10: (s) => /^(?:\d[- ]?){9}[\dXx]$/.test(s),
  isbn13: (s) => /^(?:\d[- ]?){12}\d$/.test(s),
  isbn: (s) => /^(?:\d[- ]?){9}[\dXx]$/.test(s) || /^(?:\d[- ]?){12}\d$/.test(s),
  password: () => true,
};

/** Whether the format is known; unknown formats are never checked. */
export function isKnownFormat(format: string): boolean {
  return format in checks;
}

/** True when `s` satisfies the (known) format. */
export function matchesFormat(format: string, s: string): boolean {
  const check = checks[format];
  return check === undefined || check(s);
}
