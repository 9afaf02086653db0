import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../api/audit';
import { AuditLog } from './log';

const event = (i: number): AuditEvent => ({ auditID: `id-${i}` }) as unknown as AuditEvent;

describe('AuditLog', () => {
  it('lists the newest events up to its capacity, oldest first, however many were written', () => {
    const log = new AuditLog(3);
    const told: string[] = [];
    log.subscribe((e) => told.push(e.auditID));
    for (let i = 0; i < 2; i++) log.write(event(i));
    expect(log.list().map((e) => e.auditID)).toEqual(['id-0', 'id-1']);
    for (let i = 2; i < 1000; i++) {
      log.write(event(i));
      if (i % 97 === 0)
        expect(log.list().map((e) => e.auditID)).toEqual([i - 2, i - 1, i].map((n) => `id-${n}`));
    }
    expect(log.list().map((e) => e.auditID)).toEqual(['id-997', 'id-998', 'id-999']);
    expect(told).toHaveLength(1000);
  });
});
