/**
 * The admission environment (webhook match conditions and, later,
 * validating admission policies): `object` and `oldObject` are dynamic (any
 * member may be selected; absent members fail at evaluation, so expressions
 * test with `has()` first), `request` is typed (the AdmissionRequest fields
 * without object and oldObject), `params` is dynamic when a policy has a
 * parameter kind, and `authorizer` (with `authorizer.requestResource`) when
 * an authorizer is available. Same libraries and cost model as CRD rules.
 */

import type { JsonValue } from '../api/meta';
import type { UserInfo } from '../api/authn';
import type { SchemaNode } from '../machinery/schema';
import { authorizerValue, registerAuthzLibrary, type CelAuthorizer } from './authz';
import { dynamic, toCel } from './convert';
import { baseEnvironment, deriveEnvironment, type CelEnvironment } from './env';
import { evaluateExpression, type EvalResult } from './evaluate';
import { compileExpression, isCompileError, type CompiledExpression, type CompileError } from './program';
import { declTypeOf, objectTypes, type DeclType } from './types';
import { RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS } from './cost';
import { celEquals } from './values';

export interface AdmissionEnvironmentOptions {
  /** Declare `authorizer` (match conditions and policies in v1.27 have one). */
  authorizer?: boolean;
  /** Declare `params` (policies with a paramKind). */
  params?: boolean;
}

const str: SchemaNode = { type: 'string' };
const gvk: SchemaNode = { type: 'object', properties: { group: str, version: str, kind: str } };
const gvr: SchemaNode = { type: 'object', properties: { group: str, version: str, resource: str } };

/** The AdmissionRequest as `request` sees it. */
export const ADMISSION_REQUEST_SCHEMA: SchemaNode = {
  type: 'object',
  properties: {
    uid: str,
    kind: gvk,
    resource: gvr,
    subResource: str,
    requestKind: gvk,
    requestResource: gvr,
    requestSubResource: str,
    name: str,
    namespace: str,
    operation: str,
    userInfo: {
      type: 'object',
      properties: {
        username: str,
        uid: str,
        groups: { type: 'array', items: str },
        extra: { type: 'object', additionalProperties: { type: 'array', items: str } },
      },
    },
    dryRun: { type: 'boolean' },
  },
};

interface AdmissionEnvironment {
  env: CelEnvironment;
  requestType: DeclType;
}

const cache = new Map<string, AdmissionEnvironment>();

export function admissionEnvironment(options: AdmissionEnvironmentOptions = {}): AdmissionEnvironment {
  const key = `${options.authorizer === true}/${options.params === true}`;
  let found = cache.get(key);
  if (found === undefined) {
    const requestType = declTypeOf(ADMISSION_REQUEST_SCHEMA, false, 'kubernetes.AdmissionRequest')!;
    const env = deriveEnvironment(baseEnvironment(), (engine) => {
      for (const t of objectTypes(requestType)) {
        const fields: Record<string, string> = {};
        for (const [name, f] of t.fields!) fields[name] = f.type.typeName;
        engine.registerType(t.typeName, { ctor: t.ctor!, fields });
        engine.registerOperator(`${t.typeName} == ${t.typeName}`, celEquals);
      }
      engine.registerVariable('object', 'dyn');
      engine.registerVariable('oldObject', 'dyn');
      engine.registerVariable('request', requestType.typeName);
      if (options.params === true) engine.registerVariable('params', 'dyn');
      if (options.authorizer === true) {
        registerAuthzLibrary(engine);
        engine.registerVariable('authorizer', 'kubernetes.authorization.Authorizer');
      }
    });
    found = { env, requestType };
    cache.set(key, found);
  }
  return found;
}

/** Compiles an admission expression; `expect` is the result type it must have (`bool` for match conditions). */
export function compileAdmissionExpression(
  source: string,
  options: AdmissionEnvironmentOptions = {},
  expect: string | undefined = 'bool',
): CompiledExpression | CompileError {
  const compiled = compileExpression(admissionEnvironment(options).env, source);
  if (
    isCompileError(compiled) ||
    expect === undefined ||
    compiled.resultType.name === expect ||
    compiled.resultType.name === 'dyn'
  )
    return compiled;
  const summary = `expression must evaluate to ${expect}, not ${compiled.resultType.name}`;
  return { message: summary, summary, offset: 0, line: 1, column: 1, code: 'invalid' };
}

export interface AdmissionInput {
  object: JsonValue | undefined;
  oldObject: JsonValue | undefined;
  /** AdmissionRequest fields (uid, kind, resource, operation, userInfo, ...). */
  request: JsonValue;
  params?: JsonValue;
  authorizer?: {
    authorize: CelAuthorizer;
    user: UserInfo;
    requestResource: {
      apiGroup: string;
      resource: string;
      subresource?: string;
      namespace?: string;
      name?: string;
    };
  };
}

export function evaluateAdmission(
  compiled: CompiledExpression,
  input: AdmissionInput,
  options: AdmissionEnvironmentOptions = {},
  budget = RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS,
): EvalResult {
  const { requestType } = admissionEnvironment(options);
  const vars: Record<string, unknown> = {
    object: input.object === undefined ? null : dynamic(input.object),
    oldObject: input.oldObject === undefined ? null : dynamic(input.oldObject),
    request: toCel(input.request, requestType),
  };
  if (options.params === true) vars.params = input.params === undefined ? null : dynamic(input.params);
  if (options.authorizer === true && input.authorizer !== undefined) {
    vars.authorizer = authorizerValue(
      input.authorizer.authorize,
      input.authorizer.user,
      input.authorizer.requestResource,
    );
  }
  return evaluateExpression(compiled, vars, budget);
}
