// Every generated built-in definition, both parts (the worker's start part and the lazy one, decision 0134),
// read from the files as a unit test of a layer below the registry needs them: without the registry's loader.
import { readFileSync } from 'node:fs';
import type { DefinitionSet } from '../../src/machinery/schema';

export const generatedDefinitions = Object.fromEntries(
  ['definitions.json', 'definitions-lazy.json'].flatMap((file) =>
    Object.entries(
      JSON.parse(
        readFileSync(new URL(`../../src/registry/generated/${file}`, import.meta.url), 'utf8'),
      ) as DefinitionSet,
    ),
  ),
) as DefinitionSet;
