import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../api/meta';
import type { StrategyContext } from '../../../rest/strategy';
import type { RequestScope } from '../../../rest/scope';
import { csrHooks } from './strategy';
import { populateConditionTimestamps, preserveApprovalConditions } from './conditions';

const ctx = (user?: RequestScope['user']): StrategyContext =>
  ({
    now: new Date('2026-01-02T03:04:05Z'),
    ...(user !== undefined ? { scope: { user } } : {}),
  }) as StrategyContext;

const csr = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({
  metadata: { name: 'r' },
  spec: { request: 'UkVR', signerName: 'example.com/s', usages: ['client auth'], ...spec },
  ...(status !== undefined ? { status } : {}),
});

describe('CertificateSigningRequest strategy', () => {
  const hooks = csrHooks('update');

  it('records the requester on create, over what the client claimed, and starts with an empty status', () => {
    const obj = csr(
      { username: 'root', uid: 'u-0', groups: ['system:masters'], extra: { x: ['y'] } },
      { conditions: [{ type: 'Approved', status: 'True' }] },
    );
    hooks.prepareForCreate?.(
      obj,
      ctx({
        username: 'alice',
        uid: 'u-1',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['a'] },
      }),
    );
    expect(obj.spec).toMatchObject({
      username: 'alice',
      uid: 'u-1',
      groups: ['dev', 'system:authenticated'],
      extra: { scopes: ['a'] },
    });
    expect(obj.status).toEqual({});
  });

  it('leaves out what the requester does not have', () => {
    const obj = csr({ uid: 'spoofed', extra: { x: ['y'] } });
    hooks.prepareForCreate?.(obj, ctx({ username: 'bob', groups: [] }));
    expect(obj.spec).not.toHaveProperty('uid');
    expect(obj.spec).not.toHaveProperty('groups');
    expect(obj.spec).not.toHaveProperty('extra');
    expect((obj.spec as { username: string }).username).toBe('bob');
  });

  it('keeps the stored spec on an update of the main resource', () => {
    const old = csr({ username: 'alice' });
    const next = csr({ usages: ['server auth'], username: 'mallory' });
    hooks.prepareForUpdate?.(next, old, ctx());
    expect(next.spec).toEqual(old.spec);
  });
});

describe('conditions on status and approval writes', () => {
  it('fills lastUpdateTime, and lastTransitionTime from a stored condition of the same type and status', () => {
    const old = csr(
      {},
      { conditions: [{ type: 'Approved', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }] },
    );
    const next = csr(
      {},
      {
        conditions: [
          { type: 'Approved', status: 'True' },
          { type: 'Failed', status: 'True', lastUpdateTime: '2026-01-01T00:00:00Z' },
        ],
      },
    );
    populateConditionTimestamps(next, old, '2026-01-02T03:04:05Z');
    expect((next.status as { conditions: unknown[] }).conditions).toEqual([
      {
        type: 'Approved',
        status: 'True',
        lastUpdateTime: '2026-01-02T03:04:05Z',
        lastTransitionTime: '2025-01-01T00:00:00Z',
      },
      {
        type: 'Failed',
        status: 'True',
        lastUpdateTime: '2026-01-01T00:00:00Z',
        lastTransitionTime: '2026-01-02T03:04:05Z',
      },
    ]);
  });

  it('a status write keeps the stored decision when it lines up, and leaves additions to validation', () => {
    const approved = { type: 'Approved', status: 'True', reason: 'ByAlice' };
    const old = csr({}, { conditions: [approved] });
    const rewritten = csr({}, { conditions: [{ type: 'Approved', status: 'True', reason: 'Forged' }] });
    preserveApprovalConditions(rewritten, old);
    expect((rewritten.status as { conditions: unknown[] }).conditions).toEqual([approved]);
    const added = csr({}, { conditions: [approved, { type: 'Denied', status: 'True' }] });
    preserveApprovalConditions(added, old);
    expect((added.status as { conditions: unknown[] }).conditions).toHaveLength(2);
  });
});
