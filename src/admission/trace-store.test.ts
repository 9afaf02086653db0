import { describe, expect, it } from 'vitest';
import type { AdmissionTraceStep } from '../api/admission-trace';
import { TraceStore } from './trace-store';

const request = { auditId: 'a1', received: new Date(0), method: 'DELETE', path: '/x', user: 'u' };
const pass = (name: string) =>
  ({
    operation: 'DELETE',
    group: '',
    version: 'v1',
    resource: 'configmaps',
    subresource: '',
    namespace: 'ns',
    name,
    dryRun: false,
  }) as const;
const step = (name: string): AdmissionTraceStep => ({
  name,
  type: 'plugin',
  phase: 'mutating',
  decision: 'allowed',
  durationMs: 0,
});

describe('TraceStore', () => {
  it('keeps nothing for a request that never reached admission', () => {
    const store = new TraceStore();
    store.open(request);
    store.finish('a1', 200);
    expect(store.get('a1')).toBeUndefined();
  });

  it('a retried attempt on the same object replaces its abandoned pass and steps', () => {
    const store = new TraceStore();
    const trace = store.open(request);
    trace.begin(pass('c1'));
    trace.record(step('first attempt'));
    trace.begin(pass('c1'));
    trace.record(step('second attempt'));
    store.finish('a1', 200);
    const record = store.get('a1');
    expect(record?.passes).toHaveLength(1);
    expect(record?.steps.map((s) => s.name)).toEqual(['second attempt']);
    expect(record?.code).toBe(200);
  });

  it('a collection delete keeps its first 50 passes and counts the rest', () => {
    const store = new TraceStore();
    const trace = store.open(request);
    for (let i = 0; i < 120; i++) {
      trace.begin(pass(`c${i}`));
      trace.record(step(`s${i}`));
    }
    const record = store.get('a1');
    expect(record?.passes).toHaveLength(50);
    expect(record?.steps).toHaveLength(50);
    expect(record?.omittedPasses).toBe(70);
  });

  it('keeps only the newest records', () => {
    const store = new TraceStore(2);
    for (const id of ['x', 'y', 'z']) store.open({ ...request, auditId: id }).begin(pass('c'));
    expect(store.list().map((r) => r.auditId)).toEqual(['y', 'z']);
  });
});
