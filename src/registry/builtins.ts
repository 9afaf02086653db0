/**
 * The generated v1.27 registry data, typed. Loaded once per bundle; the
 * catalog completes it with the active naming profile.
 */

import registryJson from './generated/resources.json';
import definitionsJson from './generated/definitions.json';
import type { GeneratedRegistry } from './generated/format';
import type { DefinitionSet } from '../machinery/schema';

export const builtInRegistry = registryJson as unknown as GeneratedRegistry;
export const builtInDefinitions = definitionsJson as unknown as DefinitionSet;
