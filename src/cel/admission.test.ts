import { describe, expect, it } from 'vitest';
import { celLibrary } from './engine';
import { compileAdmissionExpression, evaluateAdmission, type AdmissionInput } from './admission';
import type { AuthorizationAttributes } from './authz';
import { isCompileError, type CompiledExpression } from './program';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

function compile(source: string, authorizer = false): CompiledExpression {
  const c = compileAdmissionExpression(source, { authorizer });
  if (isCompileError(c)) throw new Error(c.message);
  return c;
}

const request = {
  uid: '1',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  name: 'web',
  namespace: 'default',
  operation: 'CREATE',
  userInfo: { username: 'alice', groups: ['dev'] },
  dryRun: false,
};

const input: AdmissionInput = {
  object: { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 3 } },
  oldObject: undefined,
  request,
};

describe('admission expressions', () => {
  it('select any member of the dynamic object, guarded with has()', () => {
    expect(
      evaluateAdmission(
        compile(
          "has(object.metadata.labels) && object.metadata.labels.app == 'web' && object.spec.replicas > 2",
        ),
        input,
      ),
    ).toMatchObject({ status: 'ok', value: true });
    expect(evaluateAdmission(compile('oldObject == null'), input)).toMatchObject({
      status: 'ok',
      value: true,
    });
    expect(evaluateAdmission(compile('object.spec.missing > 1'), input)).toMatchObject({
      status: 'error',
      message: 'no such key: missing',
    });
  });

  it('type-check the request', () => {
    expect(
      evaluateAdmission(
        compile(
          "request.operation == 'CREATE' && 'dev' in request.userInfo.groups && request.resource.resource == 'deployments'",
        ),
        input,
      ),
    ).toMatchObject({ value: true });
    const bad = compileAdmissionExpression('request.operaton == "CREATE"');
    expect(isCompileError(bad) && bad.summary).toBe("undefined field 'operaton'");
  });

  it('ask the authorizer, at 350,000 units a check', () => {
    const seen: AuthorizationAttributes[] = [];
    const authorize = (a: AuthorizationAttributes) => {
      seen.push(a);
      return {
        decision: a.verb === 'get' ? ('allow' as const) : ('deny' as const),
        reason: `verb ${a.verb}`,
      };
    };
    const withAuthz: AdmissionInput = {
      ...input,
      authorizer: {
        authorize,
        user: { username: 'alice', groups: [] },
        requestResource: { apiGroup: 'apps', resource: 'deployments', namespace: 'default' },
      },
    };
    const options = { authorizer: true };
    const allowed = evaluateAdmission(
      compile("authorizer.group('').resource('secrets').namespace('default').check('get').allowed()", true),
      withAuthz,
      options,
    );
    expect(allowed).toMatchObject({ status: 'ok', value: true });
    expect(allowed.cost).toBeGreaterThan(350_000);
    expect(seen[0]).toMatchObject({
      verb: 'get',
      apiGroup: '',
      resource: 'secrets',
      namespace: 'default',
      user: { username: 'alice' },
    });
    const reason = compileAdmissionExpression(
      "authorizer.requestResource.check('delete').reason()",
      options,
      'string',
    );
    expect(
      isCompileError(reason) ? reason.message : evaluateAdmission(reason, withAuthz, options),
    ).toMatchObject({ value: 'verb delete' });
    const three = compile("[1, 2, 3].all(i, authorizer.path('/healthz').check('get').allowed())", true);
    expect(evaluateAdmission(three, withAuthz, options)).toMatchObject({ status: 'cost-exceeded' });
  });

  it('is not offered to CRD rules: without an authorizer the variable is undeclared', () => {
    const c = compileAdmissionExpression("authorizer.path('/').check('get').allowed()");
    expect(isCompileError(c) && c.summary).toBe("undeclared reference to 'authorizer' (in container '')");
  });
});
