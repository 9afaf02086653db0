/**
 * managedFields bookkeeping around the ownership engine: entry order and
 * times, the cap on update entries, manager names from the User-Agent and
 * their validation, and conflicts as messages and 409 Statuses.
 */

import { describe, expect, it } from 'vitest';
import { lastAppliedAnnotation } from './test-fixture';
import type { KubeObject } from '../api/meta';
import { StatusError } from '../machinery/errors';
import { ApplyConflictError, applyConflictStatus, conflictMessage } from './conflict';
import { apply, updateManagedFields } from './field-manager';
import { managerFromUserAgent, validateFieldManager } from './manager-name';
import { widget, widgetApiVersion, widgetType } from './test-fixture';

const type = widgetType();
const at = (s: number): Date => new Date(Date.UTC(2024, 4, 1, 12, 0, s));
const applyAs = (
  manager: string,
  live: KubeObject | undefined,
  spec: Record<string, unknown>,
  now: Date,
  force = false,
): KubeObject =>
  apply({
    type,
    live,
    config: widget(spec),
    manager,
    apiVersion: widgetApiVersion,
    kind: 'Widget',
    subresource: '',
    force,
    now,
    lastAppliedAnnotation,
  });
const updateAs = (
  manager: string,
  live: KubeObject | undefined,
  spec: Record<string, unknown>,
  now: Date,
): KubeObject =>
  updateManagedFields({
    type,
    live,
    next: { ...(live ?? widget()), spec },
    manager,
    apiVersion: widgetApiVersion,
    subresource: '',
    now,
  });

describe('entries', () => {
  it('have the shape of the specification, times in RFC 3339 seconds', () => {
    const o = applyAs('alice', undefined, { replicas: 1 }, new Date('2024-05-01T12:00:00.789Z'));
    expect(o.metadata?.managedFields).toEqual([
      {
        manager: 'alice',
        operation: 'Apply',
        apiVersion: 'example.com/v1',
        time: '2024-05-01T12:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      },
    ]);
    expect(Object.keys(o.metadata?.managedFields?.[0] ?? {})).toEqual([
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
    ]);
  });

  it('are sorted: Apply before Update, then oldest first, then by manager', () => {
    let o = updateAs('zed', undefined, { replicas: 1 }, at(1));
    o = applyAs('bob', o, { replicas: 1, image: 'b' }, at(2));
    o = updateAs('amy', o, { replicas: 1, image: 'b', args: ['x'] }, at(3));
    o = applyAs('alice', o, { tags: ['t'] }, at(3));
    expect(o.metadata?.managedFields?.map((e) => `${e.operation}:${e.manager}`)).toEqual([
      'Apply:bob',
      'Apply:alice',
      'Update:zed',
      'Update:amy',
    ]);
  });

  it("an apply that changes nothing keeps the applier's time; a new sharer gets no time, as on the real server", () => {
    let o = applyAs('alice', undefined, { replicas: 1 }, at(1));
    o = applyAs('alice', o, { replicas: 1 }, at(9));
    o = applyAs('bob', o, { replicas: 1 }, at(10));
    const byManager = Object.fromEntries((o.metadata?.managedFields ?? []).map((e) => [e.manager, e.time]));
    expect(byManager).toEqual({ alice: '2024-05-01T12:00:01Z', bob: undefined });
  });

  it("an update's time moves only when it took fields", () => {
    let o = updateAs('bob', undefined, { replicas: 1 }, at(1));
    o = updateAs('bob', o, { replicas: 1 }, at(5));
    expect(o.metadata?.managedFields?.[0]?.time).toBe('2024-05-01T12:00:01Z');
    o = updateAs('bob', o, { replicas: 2 }, at(6));
    expect(o.metadata?.managedFields?.[0]?.time).toBe('2024-05-01T12:00:06Z');
  });

  it('beyond ten update entries the oldest fold into "ancient-changes"', () => {
    let o: KubeObject | undefined;
    for (let i = 0; i < 12; i++)
      o = updateAs(
        `m${i}`,
        o,
        {
          ...((o?.spec as object) ?? {}),
          labels: { ...(((o?.spec as { labels?: object })?.labels as object) ?? {}), [`k${i}`]: 'v' },
        },
        at(i),
      );
    const managers = (o?.metadata?.managedFields ?? []).map((e) => e.manager);
    expect(managers).toHaveLength(10);
    expect(managers[0]).toBe('ancient-changes');
    expect(managers).not.toContain('m0');
    expect(managers).not.toContain('m1');
    expect(managers).not.toContain('m2');
    const ancient = o?.metadata?.managedFields?.[0]?.fieldsV1 as {
      'f:spec': { 'f:labels': Record<string, unknown> };
    };
    expect(Object.keys(ancient['f:spec']['f:labels'])).toEqual(
      expect.arrayContaining(['f:k0', 'f:k1', 'f:k2']),
    );
  });

  it('a manager name that is empty is recorded as "unknown"', () => {
    const o = updateAs('', undefined, { replicas: 1 }, at(1));
    expect(o.metadata?.managedFields?.[0]?.manager).toBe('unknown');
  });
});

describe('manager names', () => {
  it('come from the User-Agent up to the first slash', () => {
    expect(managerFromUserAgent('kubectl/v1.27.3 (linux/amd64) kubernetes/25b4e43')).toBe('kubectl');
    expect(managerFromUserAgent('kubectl-client-side-apply/v1.27.3 (linux/amd64)')).toBe(
      'kubectl-client-side-apply',
    );
    expect(managerFromUserAgent('Mozilla')).toBe('Mozilla');
    expect(managerFromUserAgent(null)).toBe('');
  });
  it('drop unprintable characters and stop at 128 bytes', () => {
    expect(managerFromUserAgent('a\u0007b\tc/1')).toBe('abc');
    expect(managerFromUserAgent('x'.repeat(200))).toBe('x'.repeat(128));
    expect(managerFromUserAgent(`${'x'.repeat(127)}é`)).toBe('x'.repeat(127));
  });
  it('keep every printable ASCII character, and other printable ones, as the character-by-character reading does', () => {
    const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i))
      .filter((c) => c !== '/')
      .join('');
    expect(managerFromUserAgent(`${ascii}/1`)).toBe(ascii);
    expect(validateFieldManager(ascii)).toEqual([]);
    expect(managerFromUserAgent('caféx/1')).toBe('caféx');
    expect(validateFieldManager('café')).toEqual([]);
  });
  it('are validated as the real server validates fieldManager', () => {
    expect(validateFieldManager('alice')).toEqual([]);
    expect(validateFieldManager('x'.repeat(129))).toEqual([
      { type: 'FieldValueTooLong', field: 'fieldManager', detail: 'must have at most 128 bytes' },
    ]);
    expect(validateFieldManager('a\u0007')).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'fieldManager',
        badValue: 'a\u0007',
        detail: 'invalid character U+0007 (at position 1)',
      },
    ]);
  });
});

describe('conflicts', () => {
  it('one conflict: the real server’s message and a 409 with one cause', () => {
    const o = applyAs('alice', undefined, { replicas: 1 }, at(1));
    let err: unknown;
    try {
      applyAs('bob', o, { replicas: 2 }, at(2));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApplyConflictError);
    const e = err as ApplyConflictError;
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
    expect(e.conflicts.map(({ manager, field }) => ({ manager, field }))).toEqual([
      { manager: 'alice', field: '.spec.replicas' },
    ]);
    const s = applyConflictStatus(e);
    expect(s).toBeInstanceOf(StatusError);
    expect(s.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
      reason: 'Conflict',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' },
        ],
      },
      code: 409,
    });
  });

  it('several conflicts: grouped by owner, owners sorted, updaters named with apiVersion and subresource', () => {
    const msg = conflictMessage([
      {
        manager: 'bob',
        field: '.spec.image',
        owner: '"bob" using apps/v1',
        identity: '{"manager":"bob","operation":"Update","apiVersion":"apps/v1"}',
      },
      {
        manager: 'alice',
        field: '.spec.replicas',
        owner: '"alice"',
        identity: '{"manager":"alice","operation":"Apply"}',
      },
      {
        manager: 'alice',
        field: '.spec.paused',
        owner: '"alice"',
        identity: '{"manager":"alice","operation":"Apply"}',
      },
      {
        manager: 'ctl',
        field: '.status.x',
        owner: '"ctl" with subresource "status"',
        identity: '{"manager":"ctl","operation":"Apply","subresource":"status"}',
      },
    ]);
    expect(msg).toBe(
      'Apply failed with 4 conflicts: conflicts with "alice":\n- .spec.replicas\n- .spec.paused\nconflicts with "bob" using apps/v1:\n- .spec.image\nconflicts with "ctl" with subresource "status":\n- .status.x',
    );
  });
});
