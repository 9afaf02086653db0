import { describe, expect, it } from 'vitest';
import { healthPath, parseHealth } from './health';

describe('parseHealth', () => {
  it('reads each named check, exclusions, warnings and the verdict', () => {
    const report = parseHealth(
      [
        '[+]ping ok',
        '[+]log ok',
        '[-]etcd failed: reason withheld',
        '[+]poststarthook/start-apiextensions-informers excluded: ok',
        'warn: some health checks cannot be excluded: no matches for "nope"',
        'readyz check failed',
        '',
      ].join('\n'),
    );
    expect(report.checks).toEqual([
      { name: 'ping', state: 'ok', detail: 'ok' },
      { name: 'log', state: 'ok', detail: 'ok' },
      { name: 'etcd', state: 'failed', detail: 'failed: reason withheld' },
      { name: 'poststarthook/start-apiextensions-informers', state: 'excluded', detail: 'excluded: ok' },
    ]);
    expect(report.warnings).toEqual(['some health checks cannot be excluded: no matches for "nope"']);
    expect(report.passed).toBe(false);
    expect(report.other).toEqual([]);
  });

  it('leaves the verdict unknown for a bare ok, and keeps unknown lines', () => {
    expect(parseHealth('ok')).toEqual({ checks: [], warnings: [], passed: undefined, other: ['ok'] });
    expect(parseHealth('[+]ping ok\nlivez check passed\n').passed).toBe(true);
  });
});

describe('healthPath', () => {
  it('asks verbosely and repeats exclude per name', () => {
    expect(healthPath('readyz', [])).toBe('/readyz?verbose');
    expect(healthPath('livez', ['etcd', 'poststarthook/x'])).toBe(
      '/livez?verbose&exclude=etcd&exclude=poststarthook%2Fx',
    );
  });
});
