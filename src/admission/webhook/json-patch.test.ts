import { describe, expect, it } from 'vitest';
import { applyPatch, JsonPatchError } from './json-patch';

const doc = { metadata: { name: 'a', labels: { x: '1' } }, list: [1, 2] };

describe('webhook JSON patch', () => {
  it.each([
    [
      [{ op: 'add', path: '/metadata/labels/y', value: '2' }],
      { ...doc, metadata: { name: 'a', labels: { x: '1', y: '2' } } },
    ],
    [[{ op: 'remove', path: '/metadata/labels/x' }], { ...doc, metadata: { name: 'a', labels: {} } }],
    // As in the real server's library, replacing a missing key sets it.
    [
      [{ op: 'replace', path: '/metadata/labels/z', value: '3' }],
      { ...doc, metadata: { name: 'a', labels: { x: '1', z: '3' } } },
    ],
    [[{ op: 'add', path: '/list/-', value: 3 }], { ...doc, list: [1, 2, 3] }],
    [[{ op: 'move', from: '/list', path: '/moved' }], { metadata: doc.metadata, moved: [1, 2] }],
    [[{ op: 'test', path: '/metadata/name', value: 'a' }], doc],
  ])('applies %j', (ops, expected) => {
    expect(applyPatch(doc, ops)).toEqual(expected);
  });

  it.each([
    [
      { op: 'remove', path: '/spec/missing' },
      'remove operation does not apply: doc is missing path: "/spec/missing": missing value',
    ],
    [
      { op: 'remove', path: '/metadata/nope' },
      "error in remove for path: '/metadata/nope': Unable to remove nonexistent key: nope: missing value",
    ],
    [
      { op: 'add', path: '/spec/a/b', value: 1 },
      'add operation does not apply: doc is missing path: "/spec/a/b": missing value',
    ],
    [{ op: 'test', path: '/metadata/name', value: 'b' }, 'testing value /metadata/name failed: test failed'],
    [{ op: 'jump', path: '/x' }, 'Unexpected kind: jump: unknown object type'],
  ])('refuses %j with the real text', (op, message) => {
    expect(() => applyPatch(doc, [op])).toThrow(new JsonPatchError(message));
  });

  it('leaves its input alone', () => {
    applyPatch(doc, [{ op: 'add', path: '/metadata/labels/y', value: '2' }]);
    expect(doc.metadata.labels).toEqual({ x: '1' });
  });
});
