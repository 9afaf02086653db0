// Field paths from apply conflicts, and the edits that drop or adopt a field.
import { describe, expect, it } from 'vitest';
import { getAt, parseFieldPath, removeAt, setAt } from './field-path';

describe('field paths', () => {
  it('parses fields, keyed items, set values and indexes', () => {
    expect(parseFieldPath('.spec.template.spec.containers[name="app",port=80].image')).toEqual([
      { field: 'spec' },
      { field: 'template' },
      { field: 'spec' },
      { field: 'containers' },
      { key: { name: 'app', port: 80 } },
      { field: 'image' },
    ]);
    expect(parseFieldPath('.metadata.finalizers[="a.io/b"]')).toEqual([
      { field: 'metadata' },
      { field: 'finalizers' },
      { value: 'a.io/b' },
    ]);
    expect(parseFieldPath('.items[2]')).toEqual([{ field: 'items' }, { index: 2 }]);
  });

  it('reads, removes and sets through keyed lists', () => {
    const config = {
      spec: {
        containers: [
          { name: 'app', image: 'a' },
          { name: 'side', image: 'b' },
        ],
      },
    };
    const image = parseFieldPath('.spec.containers[name="side"].image');
    expect(getAt(config, image)).toEqual({ found: true, value: 'b' });
    expect(removeAt(config, image)).toBe(true);
    expect(config.spec.containers[1]).toEqual({ name: 'side' });
    const fresh: Record<string, unknown> = {};
    setAt(fresh, parseFieldPath('.spec.containers[name="app"].image'), 'nginx');
    setAt(fresh, parseFieldPath('.metadata.finalizers[="x"]'), 'x');
    expect(fresh).toEqual({
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
      metadata: { finalizers: ['x'] },
    });
  });
});
