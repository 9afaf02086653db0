/**
 * Kind-specific strategy hooks for the built-in kinds whose real strategies
 * do more than the generic ones: a Namespace gets the lifecycle finalizer
 * in `spec.finalizers` and phase Active; a ConfigMap's and Secret's keys
 * must be valid; and so on. Looked up by group and kind.
 */

import type { KubeObject } from '../api/meta';
import { fieldError, type FieldError } from '../machinery/field-errors';
import type { ResourceType } from './resource-type';
import type { StrategyContext } from './strategy';
import { crdHooks, customResourceHooks } from './crd/hooks';
import { CRD_DEFINITION } from './crd/types';

export interface KindHooks {
  prepareForCreate?(obj: KubeObject, ctx: StrategyContext): void;
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  validate?(obj: KubeObject, ctx: StrategyContext): FieldError[];
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
}

const configKeyRe = /^[-._a-zA-Z0-9]+$/;

function validateConfigKeys(obj: KubeObject, fields: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const field of fields) {
    const data = obj[field];
    if (typeof data !== 'object' || data === null || Array.isArray(data)) continue;
    for (const key of Object.keys(data)) {
      if (key.length > 253)
        errs.push(fieldError.invalid(`${field}[${key}]`, key, 'must be no more than 253 characters'));
      if (!configKeyRe.test(key))
        errs.push(
          fieldError.invalid(
            `${field}[${key}]`,
            key,
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
          ),
        );
      if (seen.has(key))
        errs.push(fieldError.invalid(`${field}[${key}]`, key, 'duplicate of key present in data'));
      seen.add(key);
    }
  }
  return errs;
}

const coreHooks: Record<string, KindHooks> = {
  Namespace: {
    prepareForCreate(obj, ctx) {
      const spec = (obj.spec ?? {}) as { finalizers?: string[] };
      spec.finalizers = [ctx.namespaceFinalizer];
      obj.spec = spec;
    },
    prepareForUpdate(obj, old) {
      // spec.finalizers change only through the finalize subresource.
      const oldSpec = old.spec as { finalizers?: string[] } | undefined;
      const spec = (obj.spec ?? {}) as { finalizers?: string[] };
      if (oldSpec?.finalizers === undefined) delete spec.finalizers;
      else spec.finalizers = [...oldSpec.finalizers];
      obj.spec = spec;
    },
  },
  ConfigMap: { validate: (obj) => validateConfigKeys(obj, ['data', 'binaryData']) },
  Secret: { validate: (obj) => validateConfigKeys(obj, ['data', 'stringData']) },
};

export function kindHooks(rt: ResourceType): KindHooks | undefined {
  if (rt.custom) return rt.crd !== undefined ? customResourceHooks(rt) : undefined;
  if (rt.group === '') return coreHooks[rt.kind];
  if (rt.definition === CRD_DEFINITION) return crdHooks;
  return undefined;
}
