// Ownership lines from managedFields: leaves by manager, shared fields, keyed items, atomic lists.
import { describe, expect, it } from 'vitest';
import type { KubeObject, ManagedFieldsEntry } from '../../api/meta';
import { managerFields, ownershipLines } from './ownership';

describe('ownershipLines', () => {
  it('tells who owns each line', () => {
    const entries: ManagedFieldsEntry[] = [
      {
        manager: 'alice',
        operation: 'Apply',
        fieldsV1: {
          'f:spec': {
            'f:replicas': {},
            'f:args': {},
            'f:items': { 'k:{"name":"a"}': { '.': {}, 'f:v': {} } },
          },
        },
      },
      { manager: 'bob', operation: 'Apply', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
    ];
    const object: KubeObject = {
      apiVersion: 'v1',
      kind: 'Thing',
      metadata: { name: 'x', managedFields: entries },
      spec: { replicas: 2, args: ['-v'], items: [{ name: 'a', v: 1 }] },
    };
    const lines = ownershipLines(object, managerFields(entries));
    const line = (label: string) => lines.find((l) => l.label === label);
    expect(line('replicas:')).toMatchObject({ value: '2', owners: ['alice', 'bob'], whole: false });
    expect(line('args:')).toMatchObject({ owners: ['alice'], whole: true });
    expect(line('v:')).toMatchObject({ owners: ['alice'] });
    expect(lines.filter((l) => l.label === '-').map((l) => [l.owners, l.whole])).toEqual([
      [[], false],
      [['alice'], false],
    ]);
    expect(lines.some((l) => l.label === 'managedFields:')).toBe(false);
  });
});
