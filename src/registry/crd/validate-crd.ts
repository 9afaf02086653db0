/**
 * Validation of a CustomResourceDefinition on create and update, with the
 * real server's messages and field paths: the name is `<plural>.<group>`;
 * group, scope and names are well formed (kind and listKind differ); there
 * is at least one version, names are unique DNS-1035 labels and exactly one
 * is the storage version; every version's schema is valid (see
 * `schema-validation.ts`), its subresources' JSONPaths point under `.spec`
 * / `.status`, its printer columns have known types and simple JSONPaths;
 * the conversion strategy is None or Webhook with a well-formed webhook;
 * stored versions stay in `spec.versions`; protected groups carry the
 * approval annotation. On update, group and plural never change, and scope
 * and kind stay once the CRD is Established.
 */

import { fieldError, GoValueText, type FieldError } from '../../machinery/field-errors';
import { goQuote } from '../../machinery/go-format';
import { deepEqual } from '../../machinery/json';
import type { NamingProfile } from '../../machinery/naming';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '../../machinery/names';
import type { DefinitionSet } from '../../machinery/schema';
import { child, index } from './paths';
import { isRaw } from './schema-props';
import { validateVersionSchema } from './schema-validation';
import {
  approvalAnnotation,
  isConditionTrue,
  isProtectedGroup,
  type CrdColumn,
  type CrdConversion,
  type CrdNames,
  type CrdSubresources,
  type CrdVersion,
  type CustomResourceDefinition,
} from './types';

const columnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

function goStrings(list: readonly string[] | undefined): GoValueText {
  return new GoValueText(list === undefined ? '[]string(nil)' : `[]string{${list.map(goQuote).join(', ')}}`);
}

function goPtr(present: boolean, type: string): string {
  return present ? `(*${type})(0xc000000000)` : `(*${type})(nil)`;
}

/** Go's `%#v` of the internal version list, which some errors print as their value. */
function goVersions(versions: readonly CrdVersion[]): GoValueText {
  const one = (v: CrdVersion): string =>
    `apiextensions.CustomResourceDefinitionVersion{Name:${goQuote(v.name ?? '')}, Served:${v.served === true}, Storage:${v.storage === true}, Deprecated:${v.deprecated === true}, DeprecationWarning:${goPtr(v.deprecationWarning !== undefined, 'string')}, Schema:${goPtr(v.schema !== undefined, 'apiextensions.CustomResourceValidation')}, Subresources:${goPtr(v.subresources !== undefined, 'apiextensions.CustomResourceSubresources')}, AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition${(v.additionalPrinterColumns ?? []).length === 0 ? '(nil)' : '{...}'}}`;
  return new GoValueText(`[]apiextensions.CustomResourceDefinitionVersion{${versions.map(one).join(', ')}}`);
}

function dns1035(path: string, value: string, errs: FieldError[], mixedCase = false): void {
  const problems = isDNS1035Label(mixedCase ? value.toLowerCase() : value);
  if (value === '' || problems.length === 0) return;
  errs.push(
    fieldError.invalid(
      path,
      value,
      mixedCase
        ? `may have mixed case, but should otherwise match: ${problems.join(',')}`
        : problems.join(','),
    ),
  );
}

export function validateNames(names: CrdNames, path: string): FieldError[] {
  const errs: FieldError[] = [];
  dns1035(child(path, 'plural'), names.plural ?? '', errs);
  dns1035(child(path, 'singular'), names.singular ?? '', errs);
  dns1035(child(path, 'kind'), names.kind ?? '', errs, true);
  dns1035(child(path, 'listKind'), names.listKind ?? '', errs, true);
  (names.shortNames ?? []).forEach((s, i) => {
    const problems = isDNS1035Label(s);
    if (problems.length > 0)
      errs.push(fieldError.invalid(index(child(path, 'shortNames'), i), s, problems.join(',')));
  });
  if ((names.kind ?? '') !== '' && names.kind === names.listKind)
    errs.push(
      fieldError.invalid(child(path, 'listKind'), names.listKind, 'kind and listKind may not be the same'),
    );
  (names.categories ?? []).forEach((c, i) => {
    const problems = isDNS1035Label(c);
    if (problems.length > 0)
      errs.push(fieldError.invalid(index(child(path, 'categories'), i), c, problems.join(',')));
  });
  return errs;
}

function validateSimpleJsonPath(value: string, path: string): FieldError[] {
  if (value === '') return [fieldError.invalid(path, value, 'must not be empty')];
  if (!value.startsWith('.'))
    return [fieldError.invalid(path, value, 'must be a simple json path starting with .')];
  return [];
}

function validateSubresources(sub: CrdSubresources | undefined, path: string): FieldError[] {
  const scale = sub?.scale;
  if (scale === undefined) return [];
  const errs: FieldError[] = [];
  const check = (
    field: string,
    value: string | undefined,
    prefixes: string[],
    what: string,
    required: boolean,
  ): void => {
    const at = child(path, `scale.${field}`);
    if (value === undefined || value === '') {
      if (required) errs.push(fieldError.required(at, ''));
      return;
    }
    const simple = validateSimpleJsonPath(value, at);
    if (simple.length > 0) errs.push(...simple);
    else if (!prefixes.some((p) => value.startsWith(p))) errs.push(fieldError.invalid(at, value, what));
  };
  check('specReplicasPath', scale.specReplicasPath, ['.spec.'], 'should be a json path under .spec', true);
  check(
    'statusReplicasPath',
    scale.statusReplicasPath,
    ['.status.'],
    'should be a json path under .status',
    true,
  );
  check(
    'labelSelectorPath',
    scale.labelSelectorPath,
    ['.spec.', '.status.'],
    'should be a json path under either .spec or .status',
    false,
  );
  return errs;
}

function validateColumn(col: CrdColumn, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if ((col.name ?? '') === '') errs.push(fieldError.required(child(path, 'name'), ''));
  const type = col.type ?? '';
  if (type === '')
    errs.push(fieldError.required(child(path, 'type'), `must be one of ${columnTypes.join(',')}`));
  else if (!columnTypes.includes(type))
    errs.push(fieldError.invalid(child(path, 'type'), type, `must be one of ${columnTypes.join(',')}`));
  if ((col.format ?? '') !== '' && !columnFormats.includes(col.format ?? ''))
    errs.push(
      fieldError.invalid(child(path, 'format'), col.format, `must be one of ${columnFormats.join(',')}`),
    );
  const jsonPath = col.jsonPath ?? '';
  if (jsonPath === '') errs.push(fieldError.required(child(path, 'JSONPath'), ''));
  else errs.push(...validateSimpleJsonPath(jsonPath, child(path, 'JSONPath')));
  return errs;
}

function validateDeprecationWarning(v: CrdVersion, path: string): FieldError[] {
  const w = v.deprecationWarning;
  const at = child(path, 'deprecationWarning');
  if (v.deprecated !== true && w !== undefined)
    return [fieldError.invalid(at, w, 'can only be set for deprecated versions')];
  if (w === undefined) return [];
  const errs: FieldError[] = [];
  if (new TextEncoder().encode(w).length > 256)
    errs.push(fieldError.invalid(at, w, 'must be <= 256 characters long'));
  if (w === '') errs.push(fieldError.invalid(at, w, 'must not be an empty string'));
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0000-\u001f\u007f-\u009f]/.exec(w);
  if (bad !== null)
    errs.push(
      fieldError.invalid(
        at,
        w,
        `must only contain printable UTF-8 characters; non-printable character found at index ${bad.index}`,
      ),
    );
  return errs;
}

function validateWebhookUrl(url: string, path: string): FieldError[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (e) {
    return [
      fieldError.invalid(path, url, `url must be a valid URL: ${e instanceof Error ? e.message : String(e)}`),
    ];
  }
  const errs: FieldError[] = [];
  if (parsed.protocol !== 'https:')
    errs.push(fieldError.invalid(path, url, "'https' is the only allowed URL scheme"));
  if (parsed.host === '') errs.push(fieldError.invalid(path, url, 'host must be specified'));
  if (parsed.username !== '' || parsed.password !== '')
    errs.push(fieldError.invalid(path, url, 'user information is not permitted in the URL'));
  if (parsed.hash !== '') errs.push(fieldError.invalid(path, url, 'fragments are not permitted in the URL'));
  if (parsed.search !== '')
    errs.push(fieldError.invalid(path, url, 'query parameters are not permitted in the URL'));
  return errs;
}

function validateConversion(conversion: CrdConversion | undefined, path: string): FieldError[] {
  if (conversion === undefined) return [];
  const errs: FieldError[] = [];
  const strategy = conversion.strategy ?? '';
  if (strategy === '') errs.push(fieldError.required(child(path, 'strategy'), ''));
  else if (strategy !== 'None' && strategy !== 'Webhook')
    errs.push(fieldError.notSupported(child(path, 'strategy'), strategy, ['None', 'Webhook']));
  const cc = conversion.webhook?.clientConfig;
  const reviewVersions = conversion.webhook?.conversionReviewVersions ?? [];
  const ccPath = child(path, 'webhookClientConfig');
  if (strategy === 'Webhook') {
    if (cc === undefined) errs.push(fieldError.required(ccPath, 'required when strategy is set to Webhook'));
    else if ((cc.url === undefined) === (cc.service === undefined))
      errs.push(fieldError.required(ccPath, 'exactly one of url or service is required'));
    else if (cc.url !== undefined) errs.push(...validateWebhookUrl(cc.url, child(ccPath, 'url')));
    else if (cc.service !== undefined) {
      const s = cc.service;
      const sp = child(ccPath, 'service');
      if ((s.name ?? '') === '')
        errs.push(fieldError.required(child(sp, 'name'), 'service name is required'));
      else
        for (const m of isDNS1123Label(s.name ?? ''))
          errs.push(fieldError.invalid(child(sp, 'name'), s.name, m));
      if ((s.namespace ?? '') === '')
        errs.push(fieldError.required(child(sp, 'namespace'), 'service namespace is required'));
      else
        for (const m of isDNS1123Label(s.namespace ?? ''))
          errs.push(fieldError.invalid(child(sp, 'namespace'), s.namespace, m));
      if (s.path !== undefined && s.path !== '' && !s.path.startsWith('/'))
        errs.push(fieldError.invalid(child(sp, 'path'), s.path, "must start with a '/'"));
      if (s.port !== undefined && (s.port < 1 || s.port > 65535))
        errs.push(
          fieldError.invalid(
            child(sp, 'port'),
            s.port,
            'port is not valid: must be between 1 and 65535, inclusive',
          ),
        );
    }
    const rvPath = child(path, 'conversionReviewVersions');
    if (reviewVersions.length === 0) errs.push(fieldError.required(rvPath, ''));
    else {
      const seen = new Set<string>();
      reviewVersions.forEach((v, i) => {
        if (seen.has(v)) {
          errs.push(fieldError.invalid(index(rvPath, i), v, 'duplicate version'));
          return;
        }
        seen.add(v);
        for (const m of isDNS1035Label(v)) errs.push(fieldError.invalid(index(rvPath, i), v, m));
      });
      if (!reviewVersions.some((v) => v === 'v1' || v === 'v1beta1'))
        errs.push(
          fieldError.invalid(rvPath, goStrings(reviewVersions), 'must include at least one of v1, v1beta1'),
        );
    }
  } else {
    if (cc !== undefined)
      errs.push(fieldError.forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0)
      errs.push(
        fieldError.forbidden(
          child(path, 'conversionReviewVersions'),
          'should not be set when strategy is not set to Webhook',
        ),
      );
  }
  return errs;
}

function hasDefaults(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasDefaults);
  if (!isRaw(v)) return false;
  if (v.default !== undefined) return true;
  return Object.entries(v).some(
    ([k, c]) => k !== 'default' && k !== 'enum' && k !== 'example' && hasDefaults(c),
  );
}

function validateStoredVersions(
  stored: readonly string[] | undefined,
  versions: readonly CrdVersion[],
): FieldError[] {
  const path = 'status.storedVersions';
  if (stored === undefined || stored.length === 0)
    return [fieldError.invalid(path, goStrings(stored), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    const found = remaining.has(v.name ?? '');
    if (v.storage === true && !found)
      errs.push(fieldError.invalid(path, goStrings(stored), `must have the storage version ${v.name ?? ''}`));
    if (found) remaining.delete(v.name ?? '');
  }
  for (const [v, i] of remaining)
    errs.push(
      fieldError.invalid(
        index(path, i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  return errs;
}

function validateApproval(
  profile: NamingProfile,
  crd: CustomResourceDefinition,
  old?: CustomResourceDefinition,
): FieldError[] {
  const group = crd.spec?.group ?? '';
  if (!isProtectedGroup(profile, group)) return [];
  const name = approvalAnnotation(profile);
  const state = (o: CustomResourceDefinition | undefined): string => {
    const a = o?.metadata?.annotations?.[name] ?? '';
    if (a === '') return 'missing';
    if (a.startsWith('unapproved')) return 'bypassed';
    try {
      const u = new URL(a);
      return u.protocol === 'https:' || u.protocol === 'http:' ? 'approved' : 'invalid';
    } catch {
      return 'invalid';
    }
  };
  const now = state(crd);
  if (old !== undefined && state(old) === now) return [];
  const at = `metadata.annotations[${name}]`;
  if (now === 'missing')
    return [fieldError.required(at, `protected groups must have approval annotation ${goQuote(name)}`)];
  if (now === 'invalid')
    return [
      fieldError.invalid(
        at,
        crd.metadata?.annotations?.[name] ?? '',
        `protected groups must have approval annotation ${goQuote(name)} with either a URL or a reason starting with "unapproved"`,
      ),
    ];
  return [];
}

function validateSpec(
  profile: NamingProfile,
  defs: DefinitionSet,
  crd: CustomResourceDefinition,
): FieldError[] {
  const spec = crd.spec ?? {};
  const errs: FieldError[] = [];
  const group = spec.group ?? '';
  if (group === '') errs.push(fieldError.required('spec.group', ''));
  else {
    const problems = isDNS1123Subdomain(group);
    if (problems.length > 0) errs.push(fieldError.invalid('spec.group', group, problems.join(',')));
    else if (group.split('.').length < 2)
      errs.push(fieldError.invalid('spec.group', group, 'should be a domain with at least one dot'));
  }
  const scope = spec.scope ?? '';
  if (scope === '') errs.push(fieldError.required('spec.scope', ''));
  else if (scope !== 'Cluster' && scope !== 'Namespaced')
    errs.push(fieldError.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));
  const versions = spec.versions ?? [];
  versions.forEach((v, i) => {
    if (!isRaw(v.schema?.openAPIV3Schema))
      errs.push(fieldError.required(`spec.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
  });
  if (spec.preserveUnknownFields === true && versions.some((v) => hasDefaults(v.schema)))
    errs.push(
      fieldError.invalid(
        'spec.preserveUnknownFields',
        true,
        'must be false in order to use defaults in the schema',
      ),
    );
  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`;
    if (v.storage === true) storage++;
    if (seen.has(v.name ?? '')) unique = false;
    seen.add(v.name ?? '');
    const problems = isDNS1035Label(v.name ?? '');
    if (problems.length > 0)
      errs.push(fieldError.invalid(child(path, 'name'), v.name ?? '', problems.join(',')));
    errs.push(...validateDeprecationWarning(v, path));
    errs.push(
      ...validateVersionSchema(
        profile,
        defs,
        v.schema,
        v.subresources?.status !== undefined,
        child(path, 'schema'),
      ).errors,
    );
    errs.push(...validateSubresources(v.subresources, child(path, 'subresources')));
    (v.additionalPrinterColumns ?? []).forEach((c, j) =>
      errs.push(...validateColumn(c, index(child(path, 'additionalPrinterColumns'), j))),
    );
  });
  if (!unique)
    errs.push(fieldError.invalid('spec.versions', goVersions(versions), 'must contain unique version names'));
  if (storage !== 1)
    errs.push(
      fieldError.invalid(
        'spec.versions',
        goVersions(versions),
        'must have exactly one version marked as storage version',
      ),
    );
  const names = spec.names ?? {};
  for (const n of ['plural', 'singular', 'kind', 'listKind'] as const)
    if ((names[n] ?? '') === '') errs.push(fieldError.required(`spec.names.${n}`, ''));
  errs.push(...validateNames(names, 'spec.names'));
  if ((spec.conversion?.strategy ?? 'None') !== 'None' && spec.preserveUnknownFields === true)
    errs.push(
      fieldError.invalid(
        'spec.conversion.strategy',
        spec.conversion?.strategy,
        'must be None if spec.preserveUnknownFields is true',
      ),
    );
  errs.push(...validateConversion(spec.conversion, 'spec.conversion'));
  return errs;
}

function validateCommon(
  profile: NamingProfile,
  crd: CustomResourceDefinition,
  old?: CustomResourceDefinition,
): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateNames(crd.status?.acceptedNames ?? {}, 'status.acceptedNames'));
  errs.push(...validateStoredVersions(crd.status?.storedVersions, crd.spec?.versions ?? []));
  errs.push(...validateApproval(profile, crd, old));
  if (crd.spec?.preserveUnknownFields === true && old?.spec?.preserveUnknownFields !== true)
    errs.push(
      fieldError.invalid(
        'spec.preserveUnknownFields',
        true,
        `cannot set to true, set ${profile.ext('preserve-unknown-fields')} to true in spec.versions[*].schema instead`,
      ),
    );
  return errs;
}

/** Create: the name rule, the spec, the status and the approval annotation. */
export function validateCrdCreate(
  profile: NamingProfile,
  defs: DefinitionSet,
  crd: CustomResourceDefinition,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = crd.metadata?.name ?? '';
  const spec = crd.spec ?? {};
  if (name !== '' && name !== `${spec.names?.plural ?? ''}.${spec.group ?? ''}`)
    errs.push(fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  return [...errs, ...validateSpec(profile, defs, crd), ...validateCommon(profile, crd)];
}

/** Update: as create (the spec only when it changed), plus the fields that may not change. */
export function validateCrdUpdate(
  profile: NamingProfile,
  defs: DefinitionSet,
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition,
): FieldError[] {
  const spec = crd.spec ?? {};
  const oldSpec = old.spec ?? {};
  const errs = deepEqual(spec, oldSpec) ? [] : validateSpec(profile, defs, crd);
  const immutable = (path: string, now: unknown, before: unknown): void => {
    if (!deepEqual(now, before)) errs.push(fieldError.invalid(path, now, 'field is immutable'));
  };
  if (isConditionTrue(old, 'Established')) {
    immutable('spec.scope', spec.scope, oldSpec.scope);
    immutable('spec.names.kind', spec.names?.kind, oldSpec.names?.kind);
  }
  immutable('spec.group', spec.group, oldSpec.group);
  immutable('spec.names.plural', spec.names?.plural, oldSpec.names?.plural);
  return [...errs, ...validateCommon(profile, crd, old)];
}
