// Where the cursor is in half-typed YAML, from indentation alone.
import { describe, expect, it } from 'vitest';
import { cursorContext } from './yaml-path';

const at = (text: string) => cursorContext(text, text.length);

describe('cursorContext', () => {
  it('finds the mapping a key is typed in', () => {
    expect(at('apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  lab')).toEqual({
      path: ['metadata'],
      mode: 'key',
      word: 'lab',
    });
    expect(at('spec:\n  containers:\n  - name: a\n    ima')).toEqual({
      path: ['spec', 'containers', '[]'],
      mode: 'key',
      word: 'ima',
    });
    expect(at('spec:\n  containers:\n  - ')).toEqual({
      path: ['spec', 'containers', '[]'],
      mode: 'key',
      word: '',
    });
    expect(at('spec:\n  ports:\n    - port: 80\n  sel')).toEqual({
      path: ['spec'],
      mode: 'key',
      word: 'sel',
    });
  });

  it('accepts a list at the indentation of its key, and skips block scalars', () => {
    expect(at('spec:\n  containers:\n  - name: a\n  - name: b\n    im')).toEqual({
      path: ['spec', 'containers', '[]'],
      mode: 'key',
      word: 'im',
    });
    expect(at('data:\n  script: |\n    echo: hi\n    x: y\n  ot')).toEqual({
      path: ['data'],
      mode: 'key',
      word: 'ot',
    });
  });

  it('tells a value from a key', () => {
    expect(at('apiVersion: ap')).toEqual({ path: [], mode: 'value', key: 'apiVersion', word: 'ap' });
    expect(at('spec:\n  restartPolicy: Al')).toEqual({
      path: ['spec'],
      mode: 'value',
      key: 'restartPolicy',
      word: 'Al',
    });
  });
});
