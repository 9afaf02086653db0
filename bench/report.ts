/**
 * Benchmark figures and their printing: every figure is reported beside
 * its floor (the same work done on the raw store, a trivial handler, plain
 * JSON.parse, …) and the ratio between them, so that a number always says
 * what it costs on top of the unavoidable.
 */

export interface Figure {
  section: string;
  name: string;
  value: number;
  unit: string;
  /** What the floor is, e.g. "trivial handler, same path". */
  floorName?: string;
  floor?: number;
  /** True when bigger is better (throughput): the ratio is floor/value so >1 means slower than the floor either way. */
  higherIsBetter?: boolean;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

export function summarize(samples: number[]): { p50: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99) };
}

/** How many times the floor's cost the figure's cost is (≥ 1 means slower than the floor). */
export function costRatio(f: Figure): number | undefined {
  if (f.floor === undefined || f.floor === 0 || f.value === 0) return undefined;
  return f.higherIsBetter === true ? f.floor / f.value : f.value / f.floor;
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const a = Math.abs(n);
  if (a >= 1000) return n.toFixed(0);
  if (a >= 10) return n.toFixed(1);
  if (a >= 1) return n.toFixed(2);
  return n.toFixed(3);
}

export function printFigures(figures: Figure[]): string {
  const rows = figures.map((f) => {
    const r = costRatio(f);
    return [
      f.section,
      f.name,
      `${fmt(f.value)} ${f.unit}`,
      f.floor === undefined ? '' : `${fmt(f.floor)} ${f.unit}`,
      f.floorName ?? '',
      r === undefined ? '' : `${fmt(r)}×`,
    ];
  });
  const head = ['section', 'figure', 'value', 'floor', 'floor is', 'cost vs floor'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
