import { describe, expect, it } from 'vitest';
import { celLibrary } from '../../cel/engine';
import { validateBackend } from './validate';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

describe('validateBackend', () => {
  const cases: { name: string; input: unknown; fields?: string[] }[] = [
    { name: 'rules', input: { name: 'deny', kind: 'rules', rules: [{ when: 'true', allowed: false }] } },
    { name: 'javascript', input: { name: 'js', kind: 'javascript', source: '(r) => ({ allowed: true })' } },
    {
      name: 'patch with expressions',
      input: {
        name: 'p',
        kind: 'rules',
        rules: [
          {
            allowed: true,
            patch: [
              { op: 'add', path: '/metadata/labels', value: { by: { expr: 'request.userInfo.username' } } },
            ],
          },
        ],
      },
    },
    { name: 'bad name', input: { name: 'Bad_Name', kind: 'rules', rules: [] }, fields: ['name'] },
    { name: 'unknown kind', input: { name: 'x', kind: 'python' }, fields: ['kind'] },
    {
      name: 'CEL errors, one cause each',
      input: {
        name: 'x',
        kind: 'rules',
        rules: [
          { when: 'object.', allowed: true },
          { when: '1 + 1', allowed: false },
        ],
      },
      fields: ['rules[0].when', 'rules[1].when'],
    },
    {
      name: 'bad patch template',
      input: {
        name: 'x',
        kind: 'rules',
        rules: [
          {
            allowed: true,
            patch: [
              { op: 'upsert', path: 'metadata' },
              { op: 'add', path: '/a' },
              { op: 'add', path: '/b', value: { expr: '((' } },
            ],
          },
        ],
      },
      fields: [
        'rules[0].patch[0].op',
        'rules[0].patch[0].path',
        'rules[0].patch[1].value',
        'rules[0].patch[2].value.expr',
      ],
    },
    {
      name: 'JS that does not parse',
      input: { name: 'x', kind: 'javascript', source: '(r) => {' },
      fields: ['source'],
    },
    {
      name: 'JS that is two statements',
      input: { name: 'x', kind: 'javascript', source: '1; 2' },
      fields: ['source'],
    },
    {
      name: 'allowed missing',
      input: { name: 'x', kind: 'rules', rules: [{ when: 'true' }] },
      fields: ['rules[0].allowed'],
    },
    {
      name: 'bad service',
      input: { name: 'x', kind: 'rules', rules: [], service: { name: 'svc', port: 70000, path: 'x' } },
      fields: ['service.namespace', 'service.port', 'service.path'],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const checked = validateBackend(c.input);
      if (c.fields === undefined) expect(checked.errors).toEqual([]);
      else expect(checked.errors.map((e) => e.field)).toEqual(c.fields);
    });

  it('reports the path name mismatch', () => {
    const checked = validateBackend({ name: 'a', kind: 'rules', rules: [] }, 'b');
    expect(checked.errors.map((e) => e.field)).toEqual(['name']);
  });
});
