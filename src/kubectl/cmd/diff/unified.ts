/**
 * A unified diff of two texts (the hunks GNU `diff -u` prints, three
 * lines of context), from a longest-common-subsequence table: the inputs
 * are single objects' YAML, small enough for the quadratic table.
 */

export function unifiedDiff(a: string, b: string, context = 3): string {
  if (a === b) return '';
  const x = a === '' ? [] : a.replace(/\n$/, '').split('\n');
  const y = b === '' ? [] : b.replace(/\n$/, '').split('\n');
  const n = x.length;
  const m = y.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (lcs[i] as number[])[j] =
        x[i] === y[j]
          ? (lcs[i + 1] as number[])[j + 1]! + 1
          : Math.max((lcs[i + 1] as number[])[j]!, (lcs[i] as number[])[j + 1]!);
  type Op = { kind: ' ' | '-' | '+'; text: string; ai: number; bi: number };
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) {
      ops.push({ kind: ' ', text: x[i] as string, ai: i, bi: j });
      i++;
      j++;
    } else if (j < m && (i >= n || (lcs[i] as number[])[j + 1]! >= (lcs[i + 1] as number[])[j]!)) {
      ops.push({ kind: '+', text: y[j] as string, ai: i, bi: j });
      j++;
    } else {
      ops.push({ kind: '-', text: x[i] as string, ai: i, bi: j });
      i++;
    }
  }
  // Group changes into hunks with context.
  let out = '';
  let k = 0;
  while (k < ops.length) {
    while (k < ops.length && ops[k]!.kind === ' ') k++;
    if (k >= ops.length) break;
    let start = Math.max(0, k - context);
    let end = k;
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== ' ') end++;
      let next = end;
      while (next < ops.length && ops[next]!.kind === ' ') next++;
      if (next < ops.length && next - end <= context * 2) end = next;
      else {
        end = Math.min(ops.length, end + context);
        break;
      }
    }
    const hunk = ops.slice(start, end);
    const aStart = hunk[0]!.ai;
    const bStart = hunk[0]!.bi;
    const aLen = hunk.filter((o) => o.kind !== '+').length;
    const bLen = hunk.filter((o) => o.kind !== '-').length;
    const range = (s: number, len: number) => (len === 1 ? `${s + 1}` : `${len === 0 ? s : s + 1},${len}`);
    out += `@@ -${range(aStart, aLen)} +${range(bStart, bLen)} @@\n`;
    for (const o of hunk) out += `${o.kind}${o.text}\n`;
    k = end;
    start = end;
  }
  return out;
}
