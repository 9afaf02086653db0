import { describe, expect, it } from 'vitest';
import { goZeroValue } from './go-zero';
import type { DefinitionSet } from './schema';

const defs: DefinitionSet = {
  Status: {
    type: 'object',
    properties: {
      replicas: { type: 'integer', default: 0 },
      ready: { type: 'integer' },
      paused: { type: 'boolean', default: false },
      lb: { ref: 'LB', default: {} },
      ptr: { ref: 'LB' },
      conditions: { type: 'array', items: { ref: 'LB' } },
    },
  },
  LB: { type: 'object', properties: { ingress: { type: 'array' }, name: { type: 'string', default: '' } } },
};

describe('goZeroValue', () => {
  it('keeps plain scalars and plain structs, drops pointers, omitempty fields and lists', () => {
    expect(goZeroValue(defs, { ref: 'Status' })).toEqual({
      replicas: 0,
      paused: false,
      lb: { name: '' },
    });
  });
  it('is empty for a schema without properties', () => {
    expect(goZeroValue(defs, { type: 'object' })).toEqual({});
  });
});
