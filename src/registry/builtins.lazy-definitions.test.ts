// The built-in definitions' lazy part (builtins.ts, decision 0134): before it is loaded only the start path's
// part is known; a failed load is a 503 and tried again; racing loads ask the host once; once loaded, the one
// `builtInDefinitions` object, each profile's set made from it earlier and the Go encoders made earlier all know
// the added kinds. The vitest setup leaves this file's definitions unloaded (its name holds `lazy-definitions`).
import { describe, expect, it } from 'vitest';
import { StatusError } from '../machinery/errors';
import { setLazyModuleLoader } from '../machinery/lazy-module';
import { PROFILES } from '../machinery/naming';
import {
  builtInDefinitionParts,
  builtInDefinitions,
  builtInDefinitionsComplete,
  loadBuiltInDefinitions,
  onBuiltInDefinitionsAdded,
} from './builtins';
import { profileDefinitions } from './crd/definitions';
import { goJsonFor } from './encoding/go-json';
import { goFieldOrder } from './go-field-order';

const profile = PROFILES.orch;
const deployment = {
  spec: { replicas: 1 },
  metadata: { name: 'web' },
  apiVersion: 'apps/v1',
  kind: 'Deployment',
};

describe('the built-in definitions’ lazy part', () => {
  // Made before the load, as the server makes them at its start.
  const profiled = profileDefinitions(profile, builtInDefinitions);
  const shaper = goJsonFor(profile);

  it('is not known before it is loaded', () => {
    expect(builtInDefinitionsComplete()).toBe(false);
    expect(builtInDefinitionParts()).toHaveLength(1);
    expect(builtInDefinitions['api.core.v1.Pod']).toBeDefined();
    expect(builtInDefinitions['api.apps.v1.Deployment']).toBeUndefined();
    expect(goFieldOrder('api.core.v1.Pod')).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(goFieldOrder('api.apps.v1.Deployment')).toBeUndefined();
    expect(Object.keys(shaper.shape(deployment) as object)).toEqual([
      'spec',
      'metadata',
      'apiVersion',
      'kind',
    ]);
  });

  it('fails as a 503 when the host cannot load it, and is tried again', async () => {
    setLazyModuleLoader(() => Promise.reject(new Error('offline')));
    const failed = await loadBuiltInDefinitions().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(StatusError);
    expect((failed as StatusError).code).toBe(503);
    expect((failed as StatusError).message).toContain('builtin-definitions');
    expect(builtInDefinitionsComplete()).toBe(false);
  });

  it('is loaded once for racing callers, and every holder made before sees it', async () => {
    const asked: string[] = [];
    setLazyModuleLoader((name) => {
      asked.push(name);
      return import('./builtin-definitions.lazy');
    });
    const added: string[][] = [];
    const stop = onBuiltInDefinitionsAdded((defs) => added.push(Object.keys(defs)));
    await Promise.all([loadBuiltInDefinitions(), loadBuiltInDefinitions()]);
    await loadBuiltInDefinitions();
    stop();
    expect(asked).toEqual(['builtin-definitions']);
    expect(added).toHaveLength(1);
    expect(added[0]).toContain('api.apps.v1.Deployment');
    expect(builtInDefinitionsComplete()).toBe(true);
    expect(builtInDefinitions['api.apps.v1.Deployment']).toBeDefined();
    // The same objects as before the load, grown in place.
    expect(profileDefinitions(profile, builtInDefinitions)).toBe(profiled);
    expect(profiled['api.apps.v1.Deployment']).toBe(builtInDefinitions['api.apps.v1.Deployment']);
    expect(goFieldOrder('api.apps.v1.Deployment')).toEqual([
      'kind',
      'apiVersion',
      'metadata',
      'spec',
      'status',
    ]);
    expect(goJsonFor(profile)).toBe(shaper);
    expect(Object.keys(shaper.shape(deployment) as object)).toEqual([
      'kind',
      'apiVersion',
      'metadata',
      'spec',
      'status',
    ]);
  });
});
