/**
 * Name and label syntax: RFC 1123 subdomains and labels, RFC 1035 labels,
 * path-segment names, qualified names and label values. Each check returns
 * the real server's messages (empty when valid).
 */

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelValueFmt = `(${qualifiedNameFmt})?`;

const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);
const labelValueRe = new RegExp(`^${labelValueFmt}$`);

function regexError(msg: string, fmt: string, examples: string[]): string {
  const ex = examples.length === 0 ? '' : `(e.g. ${examples.map((e) => `'${e}'`).join(',  or ')}, `;
  return `${msg} ${ex}regex used for validation is '${fmt}')`;
}

function maxLen(n: number): string {
  return `must be no more than ${n} characters`;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLen(63));
  if (!dns1123LabelRe.test(value))
    errs.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        dns1123LabelFmt,
        ['my-name', '123-abc'],
      ),
    );
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLen(253));
  if (!dns1123SubdomainRe.test(value))
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        dns1123SubdomainFmt,
        ['example.com'],
      ),
    );
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLen(63));
  if (!dns1035LabelRe.test(value))
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        dns1035LabelFmt,
        ['my-name', 'abc-123'],
      ),
    );
  return errs;
}

/** Names that only need to be usable as one URL path segment. */
export function isPathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errs: string[] = [];
  for (const illegal of ['/', '%']) if (value.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
}

/** `prefix/name` keys of labels, annotations and finalizers. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0] ?? '';
  else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [
      regexError(
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        qualifiedNameFmt,
        ['MyName', 'my.name', '123-abc'],
      ) + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
  if (name.length > 0 && !qualifiedNameRe.test(name))
    errs.push(
      `name part ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", qualifiedNameFmt, ['MyName', 'my.name', '123-abc'])}`,
    );
  return errs;
}

export function isLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLen(63));
  if (!labelValueRe.test(value))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        labelValueFmt,
        ['MyValue', 'my_value', '12345'],
      ),
    );
  return errs;
}

/** The name rule a kind uses for `metadata.name`. */
export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'path';

export function validateName(rule: NameRule, value: string, prefix = false): string[] {
  // generateName is validated as a prefix: a trailing dash is allowed there.
  const v = prefix && value.endsWith('-') ? `${value.slice(0, -1)}a` : value;
  switch (rule) {
    case 'subdomain':
      return isDNS1123Subdomain(v);
    case 'label':
      return isDNS1123Label(v);
    case 'dns1035':
      return isDNS1035Label(v);
    case 'path':
      return isPathSegmentName(value);
  }
}
