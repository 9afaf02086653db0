/** Unit tests of one policy's evaluation: messages and their fallbacks, reasons, failure policy, audit values. */

import { describe, expect, it } from 'vitest';
import { celLibrary } from '../../cel/engine';
import type { Authorizer } from '../../auth/authorizer';
import type { AdmissionAttributes } from '../types';
import { compilePolicy } from './compile';
import type { PolicySpec } from './types';
import { validatePolicy } from './validate';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

const authorizer = {
  authorize: () => Promise.resolve({ decision: 'NoOpinion', reason: '' }),
} as unknown as Authorizer;

const a: AdmissionAttributes = {
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  subresource: '',
  namespace: 'default',
  name: 'cm',
  user: { username: 'alice', groups: [] },
  dryRun: false,
};

let version = 0;
async function run(spec: PolicySpec, failurePolicy: 'Fail' | 'Ignore' = 'Fail') {
  const compiled = compilePolicy({ metadata: { name: 'p', resourceVersion: String(++version) }, spec });
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } };
  return validatePolicy(
    compiled,
    failurePolicy,
    { object, oldObject: undefined, request: { name: 'cm' } },
    a,
    authorizer,
    new Map(),
  );
}

describe('validatePolicy', () => {
  const messages: { name: string; validation: PolicySpec['validations']; message: string }[] = [
    {
      name: 'no message: the expression',
      validation: [{ expression: ' false ' }],
      message: 'failed expression: false',
    },
    {
      name: 'a static message, trimmed',
      validation: [{ expression: 'false', message: ' nope ' }],
      message: 'nope',
    },
    {
      name: 'messageExpression wins',
      validation: [
        { expression: 'false', message: 'nope', messageExpression: "'name ' + object.metadata.name" },
      ],
      message: 'name cm',
    },
    {
      name: 'a multi-line messageExpression falls back',
      validation: [{ expression: 'false', message: 'nope', messageExpression: "'a\\nb'" }],
      message: 'nope',
    },
    {
      name: 'a failing messageExpression falls back',
      validation: [{ expression: 'false', message: 'nope', messageExpression: 'object.data.zzz' }],
      message: 'nope',
    },
  ];
  it.each(messages)('$name', async (c) => {
    const r = await run({ validations: c.validation });
    expect(r.decisions[0]).toMatchObject({
      action: 'deny',
      evaluation: 'deny',
      message: c.message,
      reason: 'Invalid',
    });
  });

  it('a runtime error denies under Fail and admits under Ignore', async () => {
    const spec = { validations: [{ expression: 'object.data.zzz == "x"' }] };
    expect((await run(spec)).decisions[0]).toMatchObject({
      action: 'deny',
      evaluation: 'error',
      message: `expression 'object.data.zzz == "x"' resulted in error: no such key: zzz`,
    });
    expect((await run(spec, 'Ignore')).decisions[0]).toMatchObject({ action: 'admit', evaluation: 'error' });
  });

  it('a false match condition means the policy does not apply', async () => {
    const r = await run({
      matchConditions: [{ name: 'never', expression: 'false' }],
      validations: [{ expression: 'false' }],
    });
    expect(r.applies).toBe(false);
  });

  it('audit values: strings trimmed and published, null and empty left out', async () => {
    const r = await run({
      auditAnnotations: [
        { key: 'a', valueExpression: "' x '" },
        { key: 'b', valueExpression: 'null' },
        { key: 'c', valueExpression: "''" },
      ],
    });
    expect(r.annotations).toEqual([{ key: 'a', value: 'x' }]);
    expect(r.decisions).toEqual([]);
  });
});
