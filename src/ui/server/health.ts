/**
 * The health endpoints' verbose answers read as data: one `[+]name ok`,
 * `[+]name excluded: ok` or `[-]name failed: reason withheld` line per
 * named check, `warn:` lines (an excluded name that matches no check), and
 * the closing `<endpoint> check passed|failed` line. Also the request path
 * the health panel sends, so the query it teaches is the one it shows.
 */

export type HealthEndpoint = 'livez' | 'readyz' | 'healthz';

export const healthEndpoints: readonly HealthEndpoint[] = ['livez', 'readyz', 'healthz'];

export type CheckState = 'ok' | 'excluded' | 'failed';

export interface HealthCheckLine {
  name: string;
  state: CheckState;
  /** The text after the name, as the server wrote it (`ok`, `failed: reason withheld`). */
  detail: string;
}

export interface HealthReport {
  checks: HealthCheckLine[];
  warnings: string[];
  /** The closing verdict; undefined when the body had none (e.g. a bare `ok`). */
  passed: boolean | undefined;
  /** Lines that fit none of the forms above. */
  other: string[];
}

export function parseHealth(body: string): HealthReport {
  const report: HealthReport = { checks: [], warnings: [], passed: undefined, other: [] };
  for (const rawLine of body.split('\n')) {
    const line = rawLine.trimEnd();
    if (line === '') continue;
    const check = /^\[([+-])\](\S+)\s+(.*)$/.exec(line);
    if (check !== null) {
      const [, sign, name = '', detail = ''] = check;
      const state: CheckState = sign === '-' ? 'failed' : detail.startsWith('excluded') ? 'excluded' : 'ok';
      report.checks.push({ name, state, detail });
      continue;
    }
    if (line.startsWith('warn:')) {
      report.warnings.push(line.slice('warn:'.length).trim());
      continue;
    }
    const verdict = /^\S+ check (passed|failed)$/.exec(line);
    if (verdict !== null) {
      report.passed = verdict[1] === 'passed';
      continue;
    }
    report.other.push(line);
  }
  return report;
}

/** `/readyz?verbose&exclude=a&exclude=b`: `verbose` bare, as kubectl and the docs write it. */
export function healthPath(endpoint: HealthEndpoint, excluded: readonly string[]): string {
  const query = ['verbose', ...excluded.map((name) => `exclude=${encodeURIComponent(name)}`)];
  return `/${endpoint}?${query.join('&')}`;
}
