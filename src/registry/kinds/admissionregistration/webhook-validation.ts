/**
 * Validation of Mutating/ValidatingWebhookConfiguration (v1) as the real
 * server words it: fully qualified unique webhook names, rules, failure
 * and match policies, `sideEffects` (only None/NoneOnDryRun in v1),
 * `timeoutSeconds` 1–30, selectors, an https URL without user info,
 * fragment or query or a service reference, `admissionReviewVersions`
 * including a known one, and match conditions that compile. On update the
 * stricter rules apply only when the stored object already met them, so a
 * configuration stored by an older server can still be edited.
 */

import type { KubeObject } from '../../../api/meta';
import { compileAdmissionExpression, isCompileError } from '../../../cel';
import { fieldError, type FieldError } from '../../../machinery/field-errors';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName } from '../../../machinery/names';
import { goStrings, strings, validateRule, validateSelector } from './rule-validation';

interface Options {
  requireUniqueNames: boolean;
  requireKnownReviewVersion: boolean;
  requireNoSideEffects: boolean;
}

const strict: Options = {
  requireUniqueNames: true,
  requireKnownReviewVersion: true,
  requireNoSideEffects: true,
};
const acceptedReviewVersions = ['v1', 'v1beta1'];
const noSideEffects = ['None', 'NoneOnDryRun'];
const allSideEffects = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];

type Webhook = Record<string, unknown>;

function webhooksOf(obj: KubeObject): Webhook[] {
  const list = (obj as { webhooks?: unknown }).webhooks;
  return Array.isArray(list) ? list.filter((w): w is Webhook => w !== null && typeof w === 'object') : [];
}

export function validateWebhookConfiguration(
  obj: KubeObject,
  mutating: boolean,
  opts: Options = strict,
): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  webhooksOf(obj).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    errors.push(...validateWebhook(hook, mutating, opts, path));
    errors.push(
      ...validateReviewVersions(
        strings(hook.admissionReviewVersions),
        opts,
        `${path}.admissionReviewVersions`,
      ),
    );
    const name = typeof hook.name === 'string' ? hook.name : '';
    if (opts.requireUniqueNames && name !== '') {
      if (names.has(name)) errors.push(fieldError.duplicate(`${path}.name`, name));
      else names.add(name);
    }
  });
  return errors;
}

/** The rules an update must meet: the strict ones the stored object already met. */
export function validateWebhookConfigurationUpdate(
  obj: KubeObject,
  old: KubeObject,
  mutating: boolean,
): FieldError[] {
  const oldHooks = webhooksOf(old);
  const oldNames = oldHooks.map((h) => h.name);
  return validateWebhookConfiguration(obj, mutating, {
    requireUniqueNames: new Set(oldNames).size === oldNames.length,
    requireKnownReviewVersion: oldHooks.every((h) =>
      strings(h.admissionReviewVersions).some((v) => acceptedReviewVersions.includes(v)),
    ),
    requireNoSideEffects: oldHooks.every((h) => noSideEffects.includes(String(h.sideEffects))),
  });
}

function validateWebhook(hook: Webhook, mutating: boolean, opts: Options, path: string): FieldError[] {
  const errors: FieldError[] = [];
  errors.push(...fullyQualifiedName(typeof hook.name === 'string' ? hook.name : '', `${path}.name`));
  if (Array.isArray(hook.rules))
    hook.rules.forEach((r, i) =>
      errors.push(...validateRule((r ?? {}) as Record<string, unknown>, `${path}.rules[${i}]`)),
    );
  const oneOf = (field: string, allowed: string[]) => {
    const v = hook[field];
    if (v !== undefined && v !== null && !allowed.includes(String(v)))
      errors.push(fieldError.notSupported(`${path}.${field}`, v, allowed));
  };
  oneOf('failurePolicy', ['Fail', 'Ignore']);
  oneOf('matchPolicy', ['Equivalent', 'Exact']);
  const sideEffects = opts.requireNoSideEffects ? noSideEffects : allSideEffects;
  if (hook.sideEffects === undefined || hook.sideEffects === null)
    errors.push(fieldError.required(`${path}.sideEffects`, `must specify one of ${sideEffects.join(', ')}`));
  else oneOf('sideEffects', sideEffects);
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1))
    errors.push(
      fieldError.invalid(
        `${path}.timeoutSeconds`,
        timeout,
        'the timeout value must be between 1 and 30 seconds',
      ),
    );
  for (const selector of ['namespaceSelector', 'objectSelector'])
    errors.push(...validateSelector(hook[selector], `${path}.${selector}`));
  if (mutating) oneOf('reinvocationPolicy', ['IfNeeded', 'Never']);
  errors.push(...validateClientConfig((hook.clientConfig ?? {}) as Webhook, `${path}.clientConfig`));
  errors.push(...validateMatchConditions(hook.matchConditions, `${path}.matchConditions`));
  return errors;
}

function fullyQualifiedName(name: string, path: string): FieldError[] {
  if (name === '') return [fieldError.required(path)];
  const problems = isDNS1123Subdomain(name);
  if (problems.length > 0) return [fieldError.invalid(path, name, problems.join(','))];
  if (name.split('.').length < 3)
    return [
      fieldError.invalid(path, name, 'should be a domain with at least three segments separated by dots'),
    ];
  return [];
}

function validateReviewVersions(versions: string[], opts: Options, path: string): FieldError[] {
  if (versions.length === 0)
    return [fieldError.required(path, `must specify one of ${acceptedReviewVersions.join(', ')}`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let known = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errors.push(fieldError.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const p of isDNS1035Label(v)) errors.push(fieldError.invalid(`${path}[${i}]`, v, p));
    if (acceptedReviewVersions.includes(v)) known = true;
  });
  if (opts.requireKnownReviewVersion && !known)
    errors.push(
      fieldError.invalid(
        path,
        goStrings(versions),
        `must include at least one of ${acceptedReviewVersions.join(', ')}`,
      ),
    );
  return errors;
}

function validateClientConfig(cc: Webhook, path: string): FieldError[] {
  const url = cc.url;
  const service = cc.service;
  const hasURL = typeof url === 'string';
  const hasService = service !== undefined && service !== null;
  if (hasURL === hasService) return [fieldError.required(path, 'exactly one of url or service is required')];
  if (hasURL) return validateURL(url, `${path}.url`);
  const s = service as Webhook;
  return validateService(s, `${path}.service`);
}

const desiredForm = '; desired format: https://host[/path]';

function validateURL(raw: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(raw);
  if (m === null)
    return [fieldError.required(path, `url must be a valid URL: parse "${raw}": invalid URL${desiredForm}`)];
  const scheme = (m[1] ?? '').toLowerCase();
  const authority = m[2] ?? '';
  const at = authority.lastIndexOf('@');
  const user = at >= 0 ? authority.slice(0, at) : undefined;
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  if (scheme !== 'https')
    errors.push(fieldError.invalid(path, scheme, `'https' is the only allowed URL scheme${desiredForm}`));
  if (host === '') errors.push(fieldError.invalid(path, host, `host must be specified${desiredForm}`));
  if (user !== undefined)
    errors.push(fieldError.invalid(path, user, 'user information is not permitted in the URL'));
  if (m[5] !== undefined && m[5] !== '')
    errors.push(fieldError.invalid(path, m[5], 'fragments are not permitted in the URL'));
  if (m[4] !== undefined && m[4] !== '')
    errors.push(fieldError.invalid(path, m[4], 'query parameters are not permitted in the URL'));
  return errors;
}

function validateService(s: Webhook, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof s.name !== 'string' || s.name === '')
    errors.push(fieldError.required(`${path}.name`, 'service name is required'));
  if (typeof s.namespace !== 'string' || s.namespace === '')
    errors.push(fieldError.required(`${path}.namespace`, 'service namespace is required'));
  const port = typeof s.port === 'number' ? s.port : 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    errors.push(
      fieldError.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'),
    );
  if (typeof s.path !== 'string') return errors;
  const p = s.path;
  if (p === '/' || p === '') return errors;
  if (p === '//') return [...errors, fieldError.invalid(`${path}.path`, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) errors.push(fieldError.invalid(`${path}.path`, p, "must start with a '/'"));
  let check = p.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') {
      errors.push(fieldError.invalid(`${path}.path`, p, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step))
      errors.push(fieldError.invalid(`${path}.path`, p, `segment[${i}]: ${failure}`));
  });
  return errors;
}

function validateMatchConditions(value: unknown, path: string): FieldError[] {
  if (!Array.isArray(value)) return [];
  if (value.length > 64) return [fieldError.tooMany(path, value.length, 64)];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  value.forEach((c, i) => {
    const mc = (c ?? {}) as { name?: unknown; expression?: unknown };
    const p = `${path}[${i}]`;
    const expression = typeof mc.expression === 'string' ? mc.expression.trim() : '';
    if (expression === '') errors.push(fieldError.required(`${p}.expression`, ''));
    else {
      const compiled = compileAdmissionExpression(expression, { authorizer: true });
      if (isCompileError(compiled))
        errors.push(
          fieldError.invalid(
            `${p}.expression`,
            expression,
            compiled.code === 'invalid'
              ? 'cel expression must evaluate to bool'
              : `compilation failed: ${compiled.message}`,
          ),
        );
    }
    const name = typeof mc.name === 'string' ? mc.name : '';
    if (name === '') errors.push(fieldError.required(`${p}.name`, ''));
    else
      for (const problem of isQualifiedName(name))
        errors.push(fieldError.invalid(`${p}.name`, name, problem));
    if (name !== '') {
      if (names.has(name)) errors.push(fieldError.duplicate(`${p}.name`, name));
      else names.add(name);
    }
  });
  return errors;
}
