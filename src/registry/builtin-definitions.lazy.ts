/**
 * The built-in kinds' definitions the worker's start does not carry (every
 * group's but the core group's, meta's and the CRD kinds', see
 * scripts/gen-registry/parts.ts) with their Go field order: a lazy script
 * (machinery/lazy-module.ts) that `registry/builtins.ts` loads for the first
 * request that may need them (server/pipeline.ts) and for the server's own
 * writes after its start (decision 0134).
 */

import definitionsJson from './generated/definitions-lazy.json';
import fieldOrderJson from './generated/go-field-order-lazy.json';
import type { DefinitionSet } from '../machinery/schema';

export const definitions = definitionsJson as unknown as DefinitionSet;
export const fieldOrder = fieldOrderJson as readonly (string | null)[];
