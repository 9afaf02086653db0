/**
 * Structural schema rules for a CRD's `openAPIV3Schema`, as the real
 * server's ValidateStructural states them: every specified field and array
 * item has a type (unless it is int-or-string or preserves unknown fields),
 * the root is an object without additionalProperties, embedded resources
 * are objects, `metadata` at the root restricts only name and
 * generateName and appears in no nested context, value validations
 * (allOf/anyOf/oneOf/not) carry no types, defaults, descriptions or
 * markers (except the int-or-string anyOf pattern) and only reach fields
 * specified outside of them, and patterns compile. Errors come sorted by
 * their text, as the real server sorts them.
 */

import { fieldError, fieldErrorMessage, type FieldError } from '../../machinery/field-errors';
import type { NamingProfile } from '../../machinery/naming';
import { child, index, key } from './paths';
import { patternError } from './patterns';
import { isRaw } from './schema-props';

type Raw = Record<string, unknown>;
type Level = 'root' | 'item' | 'field';

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function rawProps(s: Raw): [string, Raw][] {
  return isRaw(s.properties)
    ? Object.entries(s.properties)
        .filter((e): e is [string, Raw] => isRaw(e[1]))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    : [];
}

function rawList(v: unknown): Raw[] {
  return Array.isArray(v) ? v.filter(isRaw) : [];
}

const intOrStringAnyOf = JSON.stringify([{ type: 'integer' }, { type: 'string' }]);

function isIntOrStringAnyOf(s: Raw): boolean {
  return Array.isArray(s.anyOf) && JSON.stringify(s.anyOf) === intOrStringAnyOf;
}

function isIntOrStringAllOf(s: Raw): boolean {
  const first = Array.isArray(s.allOf) ? (s.allOf[0] as unknown) : undefined;
  return isRaw(first) && Array.isArray(first.anyOf) && JSON.stringify(first.anyOf) === intOrStringAnyOf;
}

class Checker {
  readonly errors: FieldError[] = [];
  constructor(readonly profile: NamingProfile) {}

  x(s: Raw, name: string): unknown {
    return s[this.profile.ext(name)];
  }

  invariants(s: Raw, lvl: Level, path: string): void {
    const type = str(s.type);
    const intOrString = this.x(s, 'int-or-string') === true;
    const preserve = this.x(s, 'preserve-unknown-fields') === true;
    const embedded = this.x(s, 'embedded-resource') === true;
    const ext = (n: string): string => this.profile.ext(n);
    if (type === 'array' && s.items === undefined)
      this.errors.push(fieldError.required(child(path, 'items'), 'must be specified'));
    if (isRaw(s.items)) this.invariants(s.items, 'item', child(path, 'items'));
    for (const [k, v] of rawProps(s)) this.invariants(v, 'field', key(child(path, 'properties'), k));
    if (s.additionalProperties !== undefined) {
      if (lvl === 'root')
        this.errors.push(
          fieldError.forbidden(child(path, 'additionalProperties'), 'must not be used at the root'),
        );
      if (isRaw(s.additionalProperties))
        this.invariants(s.additionalProperties, 'field', child(path, 'additionalProperties'));
    }
    if (intOrString && preserve)
      this.errors.push(
        fieldError.invalid(
          child(path, ext('preserve-unknown-fields')),
          true,
          `must be false if ${ext('int-or-string')} is true`,
        ),
      );
    if (intOrString && embedded)
      this.errors.push(
        fieldError.invalid(
          child(path, ext('embedded-resource')),
          true,
          `must be false if ${ext('int-or-string')} is true`,
        ),
      );
    this.valueValidation(s, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), lvl, path);
    const checkMetadata = lvl === 'root' || embedded;
    if (embedded && type !== 'object') {
      const detail = `must be object if ${ext('embedded-resource')} is true`;
      this.errors.push(
        type === ''
          ? fieldError.required(child(path, 'type'), detail)
          : fieldError.invalid(child(path, 'type'), type, detail),
      );
    } else if (type === '' && !intOrString && !preserve) {
      const detail =
        lvl === 'root'
          ? 'must not be empty at the root'
          : lvl === 'item'
            ? 'must not be empty for specified array items'
            : 'must not be empty for specified object fields';
      this.errors.push(fieldError.required(child(path, 'type'), detail));
    }
    if (embedded && s.additionalProperties !== undefined)
      this.errors.push(
        fieldError.forbidden(
          child(path, 'additionalProperties'),
          `must not be used if ${ext('embedded-resource')} is set`,
        ),
      );
    if (lvl === 'root' && type !== '' && type !== 'object')
      this.errors.push(fieldError.invalid(child(path, 'type'), type, 'must be object at the root'));
    const props = isRaw(s.properties) ? s.properties : {};
    const propsPath = child(path, 'properties');
    if (checkMetadata) {
      for (const [name, want] of [
        ['kind', 'string'],
        ['apiVersion', 'string'],
        ['metadata', 'object'],
      ] as const) {
        const p = props[name];
        if (isRaw(p) && str(p.type) !== want)
          this.errors.push(
            fieldError.invalid(child(key(propsPath, name), 'type'), str(p.type), `must be ${want}`),
          );
      }
    }
    const metadata = props.metadata;
    if (lvl === 'root' && isRaw(metadata) && !this.onlyNames(metadata))
      this.errors.push(
        fieldError.forbidden(
          key(propsPath, 'metadata'),
          'must not specify anything other than name and generateName, but metadata is implicitly specified',
        ),
      );
    if (embedded && !preserve && rawProps(s).length === 0)
      this.errors.push(
        fieldError.required(
          child(path, 'properties'),
          `must not be empty if ${ext('embedded-resource')} is true without ${ext('preserve-unknown-fields')}`,
        ),
      );
  }

  /** Root metadata may say only `type: object` and restrict name and generateName. */
  private onlyNames(metadata: Raw): boolean {
    for (const [k, v] of Object.entries(metadata)) {
      if (k === 'type' || k === 'default') continue;
      if (k === 'properties' && isRaw(v)) {
        const names = Object.keys(v);
        if (names.every((n) => n === 'name' || n === 'generateName')) continue;
      }
      return false;
    }
    return true;
  }

  private valueValidation(
    v: Raw,
    skipAnyOf: boolean,
    skipFirstAllOfAnyOf: boolean,
    lvl: Level,
    path: string,
  ): void {
    if (!skipAnyOf)
      rawList(v.anyOf).forEach((s, i) => this.nested(s, false, false, lvl, index(child(path, 'anyOf'), i)));
    rawList(v.allOf).forEach((s, i) =>
      this.nested(s, skipFirstAllOfAnyOf && i === 0, false, lvl, index(child(path, 'allOf'), i)),
    );
    rawList(v.oneOf).forEach((s, i) => this.nested(s, false, false, lvl, index(child(path, 'oneOf'), i)));
    if (isRaw(v.not)) this.nested(v.not, false, false, lvl, child(path, 'not'));
    const pattern = v.pattern;
    if (typeof pattern === 'string' && pattern !== '') {
      const err = patternError(pattern);
      if (err !== undefined)
        this.errors.push(
          fieldError.invalid(
            child(path, 'pattern'),
            pattern,
            `must be a valid regular expression, but isn't: ${err}`,
          ),
        );
    }
  }

  private nested(v: Raw, skipAnyOf: boolean, skipAllOfAnyOf: boolean, lvl: Level, path: string): void {
    this.valueValidation(v, skipAnyOf, skipAllOfAnyOf, lvl, path);
    if (isRaw(v.items)) this.nested(v.items, false, false, lvl, child(path, 'items'));
    for (const [k, p] of rawProps(v))
      this.nested(p, false, false, 'field', key(child(path, 'properties'), k));
    const forbid = (field: string, detail: string): void => {
      this.errors.push(fieldError.forbidden(child(path, field), detail));
    };
    if (str(v.type) !== '') forbid('type', 'must be empty to be structural');
    if (v.additionalProperties !== undefined)
      forbid('additionalProperties', 'must be undefined to be structural');
    if (v.default !== undefined) forbid('default', 'must be undefined to be structural');
    if (str(v.title) !== '') forbid('title', 'must be empty to be structural');
    if (str(v.description) !== '') forbid('description', 'must be empty to be structural');
    if (v.nullable === true) forbid('nullable', 'must be false to be structural');
    const ext = (n: string): string => this.profile.ext(n);
    if (this.x(v, 'preserve-unknown-fields') === true)
      forbid(ext('preserve-unknown-fields'), 'must be false to be structural');
    if (this.x(v, 'embedded-resource') === true)
      forbid(ext('embedded-resource'), 'must be false to be structural');
    if (this.x(v, 'int-or-string') === true) forbid(ext('int-or-string'), 'must be false to be structural');
    const keys = this.x(v, 'list-map-keys');
    if (Array.isArray(keys) && keys.length > 0)
      forbid(ext('list-map-keys'), 'must be empty to be structural');
    if (this.x(v, 'list-type') !== undefined) forbid(ext('list-type'), 'must be undefined to be structural');
    if (isRaw(v.properties) && 'metadata' in v.properties)
      this.errors.push(
        fieldError.forbidden(
          key(child(path, 'properties'), 'metadata'),
          'must not be specified in a nested context',
        ),
      );
  }

  /** Every field or item a value validation mentions must be specified structurally too. */
  completeness(s: Raw, path: string): void {
    this.valueCompleteness(s, s, path, path);
    for (const [k, p] of rawProps(s)) this.completeness(p, key(child(path, 'properties'), k));
    if (isRaw(s.items)) this.completeness(s.items, child(path, 'items'));
    if (isRaw(s.additionalProperties))
      this.completeness(s.additionalProperties, child(path, 'additionalProperties'));
  }

  private valueCompleteness(v: Raw, s: Raw | undefined, sPath: string, vPath: string): void {
    if (isRaw(v.not)) this.nestedCompleteness(v.not, s, sPath, child(vPath, 'not'));
    for (const name of ['allOf', 'anyOf', 'oneOf'] as const)
      rawList(v[name]).forEach((n, i) => this.nestedCompleteness(n, s, sPath, index(child(vPath, name), i)));
  }

  private nestedCompleteness(v: Raw, s: Raw | undefined, sPath: string, vPath: string): void {
    if (s === undefined) {
      this.errors.push(fieldError.required(sPath, `because it is defined in ${vPath}`));
      return;
    }
    this.valueCompleteness(v, s, sPath, vPath);
    if (isRaw(v.items))
      this.nestedCompleteness(
        v.items,
        isRaw(s.items) ? s.items : undefined,
        child(sPath, 'items'),
        child(vPath, 'items'),
      );
    const sProps = isRaw(s.properties) ? s.properties : {};
    for (const [k, p] of rawProps(v)) {
      const sp = sProps[k];
      const sChild = key(child(sPath, 'properties'), k);
      const vChild = key(child(vPath, 'properties'), k);
      if (!isRaw(sp)) this.errors.push(fieldError.required(sChild, `because it is defined in ${vChild}`));
      else this.nestedCompleteness(p, sp, sChild, vChild);
    }
  }
}

/** The structural-schema errors of a root schema at `path` (…`.openAPIV3Schema`), sorted by text. */
export function validateStructural(profile: NamingProfile, schema: Raw, path: string): FieldError[] {
  const c = new Checker(profile);
  c.invariants(schema, 'root', path);
  c.completeness(schema, path);
  return c.errors.sort((a, b) => {
    const x = fieldErrorMessage(a);
    const y = fieldErrorMessage(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}
