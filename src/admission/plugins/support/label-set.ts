/**
 * Plain label sets as PodNodeSelector and RuntimeClass use them: the
 * `key=value,key=value` form of a namespace annotation or plugin
 * configuration (the real `ConvertSelectorToLabelsMap`, which knows only
 * equality), conflicts (a key with two values), merging (the second set
 * wins) and the subset test of a whitelist.
 */

export type LabelSet = Record<string, string>;

/** Thrown for a selector string that is not `k=v[,k=v]` (the real server answers 500 with its message). */
export class LabelSelectorSyntaxError extends Error {}

const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function keyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const name = slash < 0 ? key : key.slice(slash + 1);
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !dnsSubdomain.test(prefix)))
    return 'prefix part must be a lowercase RFC 1123 subdomain';
  if (name.length === 0) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!qualifiedNamePart.test(name))
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

export function parseLabelSet(selector: string): LabelSet {
  const out: LabelSet = {};
  if (selector === '') return out;
  for (const label of selector.split(',')) {
    const parts = label.split('=');
    if (parts.length !== 2) throw new LabelSelectorSyntaxError(`invalid selector: [${parts.join(' ')}]`);
    const key = (parts[0] ?? '').trim();
    const value = (parts[1] ?? '').trim();
    const problem = keyProblem(key);
    if (problem !== undefined)
      throw new LabelSelectorSyntaxError(`${key}: Invalid value: "${key}": ${problem}`);
    if (value.length > 63 || !labelValue.test(value))
      throw new LabelSelectorSyntaxError(
        `${key}: Invalid value: "${value}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      );
    out[key] = value;
  }
  return out;
}

/** Some key carries different values in the two sets. */
export function labelsConflict(a: LabelSet, b: LabelSet): boolean {
  return Object.entries(a).some(([k, v]) => Object.hasOwn(b, k) && b[k] !== v);
}

/** Both sets, the second winning on shared keys. */
export function mergeLabels(a: LabelSet, b: LabelSet): LabelSet {
  return { ...a, ...b };
}

/** Every label of `subset` is in `superset` with the same value; an empty superset admits anything. */
export function isLabelSubset(subset: LabelSet, superset: LabelSet): boolean {
  if (Object.keys(superset).length === 0) return true;
  return Object.entries(subset).every(([k, v]) => Object.hasOwn(superset, k) && superset[k] === v);
}
