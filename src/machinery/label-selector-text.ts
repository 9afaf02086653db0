/**
 * The string form of a LabelSelector (`app=web,tier in (a,b)`), as the
 * Scale subresource and kubectl print it.
 */

interface Requirement {
  key?: string;
  operator?: string;
  values?: string[];
}

export function selectorToString(selector: unknown): string {
  if (typeof selector !== 'object' || selector === null) return '';
  const s = selector as { matchLabels?: Record<string, string>; matchExpressions?: Requirement[] };
  const parts: string[] = [];
  for (const [k, v] of Object.entries(s.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    parts.push(`${k}=${v}`);
  for (const r of s.matchExpressions ?? []) {
    const values = [...(r.values ?? [])].sort().join(',');
    switch (r.operator) {
      case 'In':
        parts.push(`${r.key} in (${values})`);
        break;
      case 'NotIn':
        parts.push(`${r.key} notin (${values})`);
        break;
      case 'Exists':
        parts.push(`${r.key}`);
        break;
      case 'DoesNotExist':
        parts.push(`!${r.key}`);
        break;
      default:
        break;
    }
  }
  return parts.join(',');
}
