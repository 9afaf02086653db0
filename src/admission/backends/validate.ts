/**
 * Checks a declared backend and returns it in canonical form, or every
 * problem as a field error (one cause each in the 422 the sandbox API
 * answers): the name is a DNS label (it is the host name's first label),
 * rules' `when` compile as CEL booleans, patch templates are well formed
 * and their expressions compile, a JavaScript source parses as an
 * expression.
 */

import { fieldError, type FieldError } from '../../machinery/field-errors';
import { isPlainObject } from '../../machinery/json';
import { isDNS1123Label } from '../../machinery/names';
import type { JsonValue } from '../../api/meta';
import { compileBackendExpression } from './cel';
import { validatePatchTemplate } from './patch-template';
import type { BackendRule, BackendService, PatchTemplateOp, WebhookBackend } from './types';

export type Checked = { backend: WebhookBackend; errors: [] } | { backend: undefined; errors: FieldError[] };

export function validateBackend(input: unknown, nameFromPath?: string): Checked {
  const errors: FieldError[] = [];
  if (!isPlainObject(input))
    return { backend: undefined, errors: [fieldError.invalid('', input, 'must be an object')] };
  const name = input.name ?? nameFromPath;
  if (typeof name !== 'string' || name === '') errors.push(fieldError.required('name'));
  else {
    for (const m of isDNS1123Label(name)) errors.push(fieldError.invalid('name', name, m));
    if (nameFromPath !== undefined && name !== nameFromPath)
      errors.push(fieldError.invalid('name', name, `must match the name in the path, "${nameFromPath}"`));
  }
  if (input.namespace !== undefined)
    if (typeof input.namespace !== 'string')
      errors.push(fieldError.invalid('namespace', input.namespace, 'must be a string'));
    else
      for (const m of isDNS1123Label(input.namespace))
        errors.push(fieldError.invalid('namespace', input.namespace, m));
  const service = input.service === undefined ? undefined : checkService(input.service, errors);
  const kind = input.kind;
  const backend: WebhookBackend = { name: typeof name === 'string' ? name : '', kind: 'rules' };
  if (typeof input.namespace === 'string') backend.namespace = input.namespace;
  if (service !== undefined) backend.service = service;
  if (kind === 'rules') {
    if (input.source !== undefined) errors.push(fieldError.forbidden('source', 'only for kind "javascript"'));
    if (!Array.isArray(input.rules))
      errors.push(fieldError.required('rules', 'a list of {when, allowed, ...}'));
    else backend.rules = input.rules.map((r: unknown, i) => checkRule(r, `rules[${i}]`, errors));
  } else if (kind === 'javascript') {
    backend.kind = 'javascript';
    if (input.rules !== undefined) errors.push(fieldError.forbidden('rules', 'only for kind "rules"'));
    if (typeof input.source !== 'string' || input.source.trim() === '')
      errors.push(fieldError.required('source', 'a function (admissionReview) => response'));
    else {
      const problem = syntaxError(input.source);
      if (problem !== undefined) errors.push(fieldError.invalid('source', '(source)', problem));
      backend.source = input.source;
    }
  } else errors.push(fieldError.notSupported('kind', kind, ['rules', 'javascript']));
  return errors.length > 0 ? { backend: undefined, errors } : { backend, errors: [] };
}

function checkService(raw: unknown, errors: FieldError[]): BackendService | undefined {
  if (!isPlainObject(raw)) {
    errors.push(fieldError.invalid('service', raw, 'must be {name, namespace, port?, path?}'));
    return undefined;
  }
  for (const key of ['name', 'namespace'] as const) {
    const v = raw[key];
    if (typeof v !== 'string' || v === '') errors.push(fieldError.required(`service.${key}`));
    else for (const m of isDNS1123Label(v)) errors.push(fieldError.invalid(`service.${key}`, v, m));
  }
  const out: BackendService = { name: String(raw.name ?? ''), namespace: String(raw.namespace ?? '') };
  if (raw.port !== undefined) {
    if (typeof raw.port !== 'number' || !Number.isInteger(raw.port) || raw.port < 1 || raw.port > 65535)
      errors.push(fieldError.invalid('service.port', raw.port, 'must be between 1 and 65535, inclusive'));
    else out.port = raw.port;
  }
  if (raw.path !== undefined) {
    if (typeof raw.path !== 'string' || !raw.path.startsWith('/'))
      errors.push(fieldError.invalid('service.path', raw.path, 'must start with "/"'));
    else out.path = raw.path;
  }
  return out;
}

function checkRule(raw: unknown, at: string, errors: FieldError[]): BackendRule {
  const rule: BackendRule = { allowed: true };
  if (!isPlainObject(raw)) {
    errors.push(
      fieldError.invalid(at, raw, 'must be an object {when, allowed, code?, message?, patch?, warnings?}'),
    );
    return rule;
  }
  if (raw.when !== undefined) {
    if (typeof raw.when !== 'string')
      errors.push(fieldError.invalid(`${at}.when`, raw.when, 'must be a CEL expression'));
    else {
      const compiled = compileBackendExpression(raw.when, 'bool');
      if (typeof compiled === 'string') errors.push(fieldError.invalid(`${at}.when`, raw.when, compiled));
      rule.when = raw.when;
    }
  }
  if (typeof raw.allowed !== 'boolean') errors.push(fieldError.required(`${at}.allowed`, 'true or false'));
  else rule.allowed = raw.allowed;
  if (raw.code !== undefined) {
    if (typeof raw.code !== 'number' || !Number.isInteger(raw.code) || raw.code < 400 || raw.code > 599)
      errors.push(fieldError.invalid(`${at}.code`, raw.code, 'must be an HTTP error code (400-599)'));
    else rule.code = raw.code;
  }
  if (raw.message !== undefined) {
    if (typeof raw.message !== 'string')
      errors.push(fieldError.invalid(`${at}.message`, raw.message, 'must be a string'));
    else rule.message = raw.message;
  }
  if (raw.warnings !== undefined) {
    if (!Array.isArray(raw.warnings) || raw.warnings.some((w) => typeof w !== 'string'))
      errors.push(fieldError.invalid(`${at}.warnings`, raw.warnings, 'must be a list of strings'));
    else rule.warnings = raw.warnings as string[];
  }
  if (raw.patch !== undefined) {
    const problems = validatePatchTemplate(raw.patch, `${at}.patch`);
    errors.push(...problems);
    if (problems.length === 0) rule.patch = raw.patch as JsonValue[] as unknown as PatchTemplateOp[];
  }
  return rule;
}

/** The parser's complaint about a function source, if any; compiling never runs it. */
export function syntaxError(source: string): string | undefined {
  try {
    // Only compiled, never called: the function body returns the expression without evaluating it.
    new Function(`"use strict"; return (\n${source}\n);`);
    return undefined;
  } catch (e) {
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
}
