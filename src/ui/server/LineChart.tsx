/**
 * A small hand-drawn SVG line chart for the metrics view: one polyline per
 * series over the last readings, a zero line and a rounded top line with
 * its value, and a legend that says each series' latest value in words (the
 * drawing itself is hidden from screen readers; the legend carries the
 * numbers). No chart library: a few polylines do not need one.
 */

import { niceCeiling } from './chart-scale';

export interface ChartSeries {
  label: string;
  /** One value per reading; undefined leaves a gap. */
  values: readonly (number | undefined)[];
}

const width = 320;
const height = 110;
const pad = { left: 4, right: 4, top: 14, bottom: 4 };

function lastDefined(values: readonly (number | undefined)[]): number | undefined {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== undefined) return values[i];
  return undefined;
}

export function LineChart({
  series,
  capacity,
  format,
  testId,
}: {
  series: readonly ChartSeries[];
  /** How many readings the x axis holds (the newest at the right edge). */
  capacity: number;
  format: (value: number) => string;
  testId?: string;
}) {
  const max = niceCeiling(Math.max(0, ...series.flatMap((s) => s.values.filter((v) => v !== undefined))));
  const x = (index: number, count: number) =>
    pad.left + ((width - pad.left - pad.right) * (capacity - count + index)) / Math.max(1, capacity - 1);
  const y = (value: number) => pad.top + (height - pad.top - pad.bottom) * (1 - value / max);
  const latest = series.map((s) => lastDefined(s.values));
  return (
    <figure className="line-chart" data-testid={testId} data-latest={latest.map((v) => v ?? '').join(',')}>
      <svg viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false" preserveAspectRatio="none">
        <line className="grid" x1={pad.left} x2={width - pad.right} y1={y(max)} y2={y(max)} />
        <line className="grid" x1={pad.left} x2={width - pad.right} y1={y(max / 2)} y2={y(max / 2)} />
        <line className="axis" x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} />
        <text className="tick" x={pad.left + 2} y={y(max) - 3}>
          {format(max)}
        </text>
        {series.map((s, index) => (
          <g key={s.label} className={`series s${index % 8}`}>
            {segments(s.values).map((segment) => (
              <polyline
                key={segment.start}
                points={segment.values
                  .map((v, i) => `${x(segment.start + i, s.values.length).toFixed(1)},${y(v).toFixed(1)}`)
                  .join(' ')}
              />
            ))}
          </g>
        ))}
      </svg>
      <figcaption>
        <ul className="chart-legend">
          {series.map((s, index) => (
            <li key={s.label} className={`s${index % 8}`}>
              <span className="swatch" aria-hidden="true" /> {s.label}:{' '}
              <strong>{latest[index] === undefined ? 'no data yet' : format(latest[index])}</strong>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/** The runs of defined values (a single point is drawn as a tiny run so that it shows). */
function segments(values: readonly (number | undefined)[]): { start: number; values: number[] }[] {
  const runs: { start: number; values: number[] }[] = [];
  let current: { start: number; values: number[] } | undefined;
  values.forEach((value, index) => {
    if (value === undefined) {
      current = undefined;
      return;
    }
    if (current === undefined) {
      current = { start: index, values: [] };
      runs.push(current);
    }
    current.values.push(value);
  });
  for (const run of runs) if (run.values.length === 1) run.values.push(run.values[0] as number);
  return runs;
}
