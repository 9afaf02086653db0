/**
 * Turns the curated Go pointer facts (`go-pointers.ts`) into the generated
 * `go-pointers.json`: neutral definition names, each field checked to be
 * an optional scalar property without a default of a kept definition, so
 * a typo or an upstream change fails the generator instead of going
 * unnoticed.
 */

import type { DefinitionSet } from '../../src/machinery/schema';
import { goPointerScalars } from './go-pointers';

const ownPrefixes = ['apimachinery.', 'apiextensions-apiserver.', 'kube-aggregator.'];

function neutralName(short: string): string {
  return ownPrefixes.some((p) => short.startsWith(p)) ? short : `api.${short}`;
}

export function goPointerFacts(definitions: DefinitionSet): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [short, fields] of Object.entries(goPointerScalars).sort(([a], [b]) => a.localeCompare(b))) {
    const name = neutralName(short);
    const def = definitions[name];
    if (def === undefined) throw new Error(`go-pointers: no definition ${name}`);
    for (const field of fields) {
      const prop = def.properties?.[field];
      if (prop === undefined) throw new Error(`go-pointers: ${name} has no property ${field}`);
      if (prop.default !== undefined) throw new Error(`go-pointers: ${name}.${field} has a default`);
      if (!['string', 'integer', 'number', 'boolean'].includes(prop.type ?? ''))
        throw new Error(`go-pointers: ${name}.${field} is not a scalar`);
    }
    out[name] = [...fields].sort();
  }
  return out;
}
