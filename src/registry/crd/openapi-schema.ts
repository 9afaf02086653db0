/**
 * The OpenAPI v3 rules the real server applies to every node of a CRD
 * schema (ValidateCustomResourceDefinitionOpenAPISchema): only OpenAPI v3
 * types; no `$ref`, `id`, `definitions`, `dependencies`, `patternProperties`
 * or `additionalItems`; no `uniqueItems`; properties and additionalProperties
 * exclusive; no defaults inside top-level metadata; the list/map markers
 * consistent with the type (`x-orch-list-type` set / map, map keys scalar,
 * required or defaulted, not nullable); and the static parts of validation
 * rules (rule present, message without line breaks, reason supported,
 * fieldPath valid). Compiling the rules is `rules.ts`'s job.
 */

import { fieldError, GoValueText, type FieldError } from '../../machinery/field-errors';
import { goQuote } from '../../machinery/go-format';
import type { NamingProfile } from '../../machinery/naming';
import { fieldPathValid } from './cel-validate';
import { child, index, key } from './paths';
import { isRaw, toSchemaNode } from './schema-props';

type Raw = Record<string, unknown>;

const v3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const supportedReasons = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

export interface SchemaContext {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function sorted(o: Raw): [string, unknown][] {
  return Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export class OpenApiChecker {
  readonly errors: FieldError[] = [];
  constructor(readonly profile: NamingProfile) {}

  private ext(n: string): string {
    return this.profile.ext(n);
  }

  private x(s: Raw, n: string): unknown {
    return s[this.ext(n)];
  }

  private push(e: FieldError): void {
    this.errors.push(e);
  }

  private standard(s: Raw, path: string, ctx: SchemaContext): void {
    const type = str(s.type);
    if (type !== '' && !v3Types.includes(type))
      this.push(fieldError.notSupported(child(path, 'type'), type, v3Types));
    if (s.default !== undefined && !ctx.allowDefaults)
      this.push(
        fieldError.forbidden(
          child(path, 'default'),
          `must not be set${ctx.disallowDefaultsReason === '' ? '' : ` ${ctx.disallowDefaultsReason}`}`,
        ),
      );
    if (str(s.id) !== '') this.push(fieldError.forbidden(child(path, 'id'), 'id is not supported'));
    if (s.additionalItems !== undefined)
      this.push(fieldError.forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
    if (isRaw(s.patternProperties) && Object.keys(s.patternProperties).length > 0)
      this.push(fieldError.forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
    if (isRaw(s.definitions) && Object.keys(s.definitions).length > 0)
      this.push(fieldError.forbidden(child(path, 'definitions'), 'definitions is not supported'));
    if (s.dependencies !== undefined)
      this.push(fieldError.forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
    if (s.$ref !== undefined) this.push(fieldError.forbidden(child(path, '$ref'), '$ref is not supported'));
    if (type === 'null')
      this.push(
        fieldError.forbidden(
          child(path, 'type'),
          'type cannot be set to null, use nullable as an alternative',
        ),
      );
    if (Array.isArray(s.items) && s.items.length > 0)
      this.push(fieldError.forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
    if (ctx.insideResourceMeta && this.x(s, 'embedded-resource') === true)
      this.push(
        fieldError.forbidden(
          child(path, this.ext('embedded-resource')),
          'must not be used inside of resource meta',
        ),
      );
  }

  check(s: Raw, path: string, ctx: SchemaContext, isRoot: boolean): void {
    this.standard(s, path, ctx);
    if (s.uniqueItems === true)
      this.push(
        fieldError.forbidden(
          child(path, 'uniqueItems'),
          'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
        ),
      );
    const props = isRaw(s.properties) ? s.properties : {};
    if (s.additionalProperties !== undefined) {
      if (
        Object.keys(props).length > 0 &&
        (s.additionalProperties === false || isRaw(s.additionalProperties))
      )
        this.push(
          fieldError.forbidden(
            child(path, 'additionalProperties'),
            'additionalProperties and properties are mutual exclusive',
          ),
        );
      const sub = ctx.insideResourceMeta
        ? {
            ...ctx,
            allowDefaults: false,
            disallowDefaultsReason: 'inside additionalProperties applying to object metadata',
          }
        : ctx;
      if (isRaw(s.additionalProperties))
        this.check(s.additionalProperties, child(path, 'additionalProperties'), sub, false);
    }
    const embedded = this.x(s, 'embedded-resource') === true;
    for (const [k, v] of sorted(props)) {
      if (!isRaw(v)) continue;
      let sub = ctx;
      if ((isRoot || embedded) && metaFields.has(k)) {
        sub = { ...sub, insideResourceMeta: true };
        if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${k}` };
      }
      this.check(v, key(child(path, 'properties'), k), sub, false);
    }
    if (isRaw(s.not)) this.check(s.not, child(path, 'not'), ctx, false);
    for (const name of ['allOf', 'oneOf', 'anyOf'] as const)
      if (Array.isArray(s[name]))
        (s[name] as unknown[]).forEach((v, i) => {
          if (isRaw(v)) this.check(v, index(child(path, name), i), ctx, false);
        });
    if (isRaw(s.definitions))
      for (const [k, v] of sorted(s.definitions))
        if (isRaw(v)) this.check(v, key(child(path, 'definitions'), k), ctx, false);
    if (isRaw(s.items)) this.check(s.items, child(path, 'items'), ctx, false);
    else if (Array.isArray(s.items))
      s.items.forEach((v, i) => {
        if (isRaw(v)) this.check(v, index(child(path, 'items'), i), ctx, false);
      });
    if (isRaw(s.dependencies))
      for (const [k, v] of sorted(s.dependencies))
        if (isRaw(v)) this.check(v, key(child(path, 'dependencies'), k), ctx, false);
    this.markers(s, path);
    this.rules(s, path);
  }

  private markers(s: Raw, path: string): void {
    const type = str(s.type);
    const preserve = this.x(s, 'preserve-unknown-fields');
    if (preserve === false)
      this.push(
        fieldError.invalid(
          child(path, this.ext('preserve-unknown-fields')),
          false,
          'must be true or undefined',
        ),
      );
    const mapType = this.x(s, 'map-type');
    if (mapType !== undefined && type !== 'object') {
      const detail = `must be object if ${this.ext('map-type')} is specified`;
      this.push(
        type === ''
          ? fieldError.required(child(path, 'type'), detail)
          : fieldError.invalid(child(path, 'type'), type, detail),
      );
    }
    if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular')
      this.push(fieldError.notSupported(child(path, this.ext('map-type')), mapType, ['atomic', 'granular']));
    const listType = this.x(s, 'list-type');
    const items = isRaw(s.items) ? s.items : undefined;
    if (listType !== undefined && type !== 'array') {
      const detail = `must be array if ${this.ext('list-type')} is specified`;
      this.push(
        type === ''
          ? fieldError.required(child(path, 'type'), detail)
          : fieldError.invalid(child(path, 'type'), type, detail),
      );
    } else if (listType === 'set' && items !== undefined) {
      const itemsPath = child(path, 'items');
      const detail = `must be atomic as item of a list with ${this.ext('list-type')}=set`;
      if (str(items.type) === 'array') {
        const inner = this.x(items, 'list-type');
        if (inner !== undefined && inner !== 'atomic')
          this.push(fieldError.invalid(child(itemsPath, this.ext('list-type')), inner, detail));
      } else if (str(items.type) === 'object' && this.x(items, 'map-type') !== 'atomic')
        // The real server reports the items' list type here (a nil pointer for objects), printed as "null".
        this.push(
          fieldError.invalid(
            child(itemsPath, this.ext('map-type')),
            this.x(items, 'list-type') ?? 'null',
            detail,
          ),
        );
    }
    if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map')
      this.push(
        fieldError.notSupported(child(path, this.ext('list-type')), listType, ['atomic', 'set', 'map']),
      );
    const keys = this.x(s, 'list-map-keys');
    const keyList = Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
    if (keyList.length > 0) {
      const detail = `must be map if ${this.ext('list-map-keys')} is non-empty`;
      if (listType === undefined) this.push(fieldError.required(child(path, this.ext('list-type')), detail));
      else if (listType !== 'map')
        this.push(fieldError.invalid(child(path, this.ext('list-type')), listType, detail));
    }
    if (listType === 'map') this.mapList(s, path, keyList);
    if (listType === 'set' || listType === 'map') this.mapSetItems(s, path, listType, keyList);
  }

  private mapList(s: Raw, path: string, keys: string[]): void {
    const lt = this.ext('list-type');
    if (keys.length === 0)
      this.push(
        fieldError.required(child(path, this.ext('list-map-keys')), `must not be empty if ${lt} is map`),
      );
    if (s.items === undefined)
      this.push(fieldError.required(child(path, 'items'), `must have a schema if ${lt} is map`));
    if (Array.isArray(s.items))
      this.push(
        fieldError.invalid(child(path, 'items'), s.items, `must only have a single schema if ${lt} is map`),
      );
    const items = isRaw(s.items) ? s.items : undefined;
    if (items === undefined) return;
    if (str(items.type) !== 'object') {
      this.push(
        fieldError.invalid(
          child(child(path, 'items'), 'type'),
          str(items.type),
          `must be object if parent array's ${lt} is map`,
        ),
      );
      return;
    }
    const props = isRaw(items.properties) ? items.properties : {};
    const seen = new Set<string>();
    const goKeys = new GoValueText(`[]string{${keys.map(goQuote).join(', ')}}`);
    for (const k of keys) {
      const p = props[k];
      if (isRaw(p)) {
        if (p.type === 'array' || p.type === 'object')
          this.push(
            fieldError.invalid(
              child(key(child(child(path, 'items'), 'properties'), k), 'type'),
              str(items.type),
              `must be a scalar type if parent array's ${lt} is map`,
            ),
          );
      } else
        this.push(
          fieldError.invalid(
            child(path, this.ext('list-map-keys')),
            goKeys,
            'entries must all be names of item properties',
          ),
        );
      if (seen.has(k))
        this.push(
          fieldError.invalid(
            child(path, this.ext('list-map-keys')),
            goKeys,
            'must not contain duplicate entries',
          ),
        );
      seen.add(k);
    }
  }

  private mapSetItems(s: Raw, path: string, listType: string, keys: string[]): void {
    const items = isRaw(s.items) ? s.items : undefined;
    if (items === undefined) return;
    const itemsPath = child(path, 'items');
    if (items.nullable === true)
      this.push(
        fieldError.forbidden(
          child(itemsPath, 'nullable'),
          `cannot be nullable when ${this.ext('list-type')} is ${listType}`,
        ),
      );
    if (listType !== 'map') return;
    const required = new Set(Array.isArray(items.required) ? items.required : []);
    const props = isRaw(items.properties) ? items.properties : {};
    for (const k of keys) {
      const p = props[k];
      if (!isRaw(p)) continue;
      const propPath = key(child(itemsPath, 'properties'), k);
      if (!required.has(k) && p.default === undefined)
        this.push(
          fieldError.required(
            child(propPath, 'default'),
            `this property is in ${this.ext('list-map-keys')}, so it must have a default or be a required property`,
          ),
        );
      if (p.nullable === true)
        this.push(
          fieldError.forbidden(
            child(propPath, 'nullable'),
            `this property is in ${this.ext('list-map-keys')}, so it cannot be nullable`,
          ),
        );
    }
  }

  private rules(s: Raw, path: string): void {
    const list = this.x(s, 'validations');
    if (!Array.isArray(list)) return;
    const base = child(path, this.ext('validations'));
    list.forEach((r, i) => {
      if (!isRaw(r)) return;
      const at = (f: string): string => child(index(base, i), f);
      const rule = str(r.rule).trim();
      const rawMessage = str(r.message);
      const message = rawMessage.trim();
      if (rule === '') this.push(fieldError.required(at('rule'), 'rule is not specified'));
      else if (rawMessage !== '' && message === '')
        this.push(fieldError.invalid(at('message'), rawMessage, 'message must be non-empty if specified'));
      else if (/[\n\r]/.test(message))
        this.push(fieldError.invalid(at('message'), rawMessage, 'message must not contain line breaks'));
      else if (/[\n\r]/.test(rule) && message === '')
        this.push(
          fieldError.required(at('message'), 'message must be specified if rule contains line breaks'),
        );
      const msgExpr = str(r.messageExpression);
      if (msgExpr !== '' && msgExpr.trim() === '')
        this.push(
          fieldError.required(at('messageExpression'), 'messageExpression must be non-empty if specified'),
        );
      if (r.reason !== undefined && !supportedReasons.includes(str(r.reason)))
        this.push(fieldError.notSupported(at('reason'), r.reason, supportedReasons));
      const fp = str(r.fieldPath);
      if (fp !== '' && fp.trim() === '')
        this.push(fieldError.invalid(at('fieldPath'), fp, 'fieldPath must be non-empty if specified'));
      if (/[\n\r]/.test(fp))
        this.push(fieldError.invalid(at('fieldPath'), fp, 'fieldPath must not contain line breaks'));
      if (fp.trim() !== '' && !fieldPathValid(toSchemaNode(this.profile, s), fp))
        this.push(fieldError.invalid(at('fieldPath'), fp, 'fieldPath must be a valid path'));
    });
  }
}

export function checkOpenApiSchema(profile: NamingProfile, schema: Raw, path: string): FieldError[] {
  const c = new OpenApiChecker(profile);
  c.check(schema, path, { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false }, true);
  return c.errors;
}
