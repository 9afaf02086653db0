/**
 * The generated v1.27 registry data, typed. Loaded once per bundle; the
 * catalog completes it with the active naming profile.
 *
 * The definitions come in two parts (decision 0134): the worker's start
 * carries the core group's, meta's and the CRD kinds' (what a first screen
 * and the start's own writes read); every other group's are a lazy script,
 * loaded by `loadBuiltInDefinitions()` at an asynchronous entry point (the
 * request pipeline, the post-start writes) before anything reads them.
 * `builtInDefinitions` is one object that grows when the script is loaded,
 * so every holder of it (the catalog, the store, the field manager) sees the
 * additions; the few that index it ahead of use hear of them through
 * `onBuiltInDefinitionsAdded`.
 */

import registryJson from './generated/resources.json';
import startDefinitionsJson from './generated/definitions.json';
import startFieldOrderJson from './generated/go-field-order.json';
import type { GeneratedRegistry } from './generated/format';
import type { DefinitionSet } from '../machinery/schema';
import { LazyModule } from '../machinery/lazy-module';
import type * as LazyDefinitions from './builtin-definitions.lazy';

export const builtInRegistry = registryJson as unknown as GeneratedRegistry;

/** One part of the generated definitions with its Go field order (aligned with its own sorted names). */
export interface BuiltInDefinitionPart {
  definitions: DefinitionSet;
  fieldOrder: readonly (string | null)[];
}

const parts: BuiltInDefinitionPart[] = [
  {
    definitions: startDefinitionsJson as unknown as DefinitionSet,
    fieldOrder: startFieldOrderJson as readonly (string | null)[],
  },
];

/** Every built-in definition loaded so far: the start path's at once, the rest once loaded. */
export const builtInDefinitions: DefinitionSet = { ...parts[0]?.definitions };

/** The parts loaded so far, the start path's first. */
export function builtInDefinitionParts(): readonly BuiltInDefinitionPart[] {
  return parts;
}

const lazyDefinitions = new LazyModule<typeof LazyDefinitions>(
  'builtin-definitions',
  () => import('./builtin-definitions.lazy'),
);

type AddedListener = (added: DefinitionSet) => void;
const listeners = new Set<AddedListener>();

/** Calls `listener` with the definitions each later load adds (their names are new to `builtInDefinitions`). */
export function onBuiltInDefinitionsAdded(listener: AddedListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether every built-in definition is loaded (synchronous: the pipeline asks it on every request). */
export function builtInDefinitionsComplete(): boolean {
  return parts.length > 1;
}

/**
 * Loads the definitions the start does not carry, once; a failed load (offline before the shell was cached)
 * rejects with a 503 and is tried again by the next call.
 */
export async function loadBuiltInDefinitions(): Promise<void> {
  if (builtInDefinitionsComplete()) return;
  const loaded = await lazyDefinitions.load();
  // Callers racing the first load all get here; the first adds.
  if (builtInDefinitionsComplete()) return;
  parts.push({ definitions: loaded.definitions, fieldOrder: loaded.fieldOrder });
  Object.assign(builtInDefinitions, loaded.definitions);
  for (const listener of listeners) listener(loaded.definitions);
}
