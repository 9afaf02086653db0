import { describe, expect, it } from 'vitest';
import { parseResourceList, resourcesPatch } from './resources';

describe('set resources', () => {
  it('parses resource lists and refuses malformed quantities in kubectl’s words', () => {
    expect(parseResourceList('cpu=200m,memory=512Mi')).toEqual({ cpu: '200m', memory: '512Mi' });
    expect(() => parseResourceList('cpu=abc')).toThrow('quantities must match the regular expression');
  });

  it('merges into matching containers and patches only those that change', () => {
    const spec = {
      containers: [
        { name: 'nginx', resources: { limits: { cpu: '1' } } },
        { name: 'redis', resources: { requests: { cpu: '100m' } } },
      ],
    };
    const { patch, found } = resourcesPatch(spec, 'ngi*', { memory: '1Gi' }, { cpu: '100m' });
    expect(found).toBe(true);
    expect(patch).toEqual({
      containers: [
        { name: 'nginx', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m' } } },
      ],
    });
    expect(resourcesPatch(spec, 'redis', {}, { cpu: '100m' }).patch).toEqual({});
    expect(resourcesPatch(spec, 'nope', {}, { cpu: '1' }).found).toBe(false);
  });
});
