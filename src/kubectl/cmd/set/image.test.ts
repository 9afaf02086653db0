import { describe, expect, it } from 'vitest';
import { imagePatch, splitImages } from './image';

describe('set image', () => {
  it('splits resources from name=image pairs', () => {
    const { resources, images } = splitImages(['deployment/web', 'nginx=nginx:1.26', ' side =busybox']);
    expect(resources).toEqual(['deployment/web']);
    expect([...images]).toEqual([
      ['nginx', 'nginx:1.26'],
      ['side', 'busybox'],
    ]);
  });

  it('patches only changed containers, init containers too, and names unknown ones', () => {
    const spec = {
      containers: [
        { name: 'a', image: 'x:1' },
        { name: 'b', image: 'y:1' },
      ],
      initContainers: [{ name: 'init', image: 'z:1' }],
    };
    const { patch, missing } = imagePatch(
      spec,
      new Map([
        ['a', 'x:1'],
        ['init', 'z:2'],
        ['nope', 'q'],
      ]),
    );
    expect(patch).toEqual({ initContainers: [{ name: 'init', image: 'z:2' }] });
    expect(missing).toEqual(['nope']);
  });

  it('sets every container with *', () => {
    const spec = {
      containers: [
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ],
    };
    expect(imagePatch(spec, new Map([['*', 'new']])).patch).toEqual({
      containers: [
        { name: 'a', image: 'new' },
        { name: 'b', image: 'new' },
      ],
    });
  });
});
