/**
 * The `yaml` package, loaded when first needed: the request pipeline awaits
 * it for a request whose Accept names YAML (see server/pipeline.ts), a
 * request body that takes the YAML decoder awaits it (http/body.ts), and
 * code that parses YAML settings or configuration files awaits it before
 * parsing, only when there is text to parse.
 */

import { LazyModule } from '../lazy-module';

export const yamlLibrary = new LazyModule('yaml', () => import('./yaml.lazy'));

/** Parses one YAML (or JSON) document: the library's `parse`, or a host's own import of it. */
export type YamlParse = (text: string) => unknown;

/**
 * Whether a request may be answered in YAML (its Accept names YAML): the library is loaded before the
 * request is handled. Bodies load it where they are decoded (http/body.ts), only when a body takes the
 * YAML decoder: apply bodies are YAML by media type but mostly JSON text, which needs no YAML library.
 */
export function acceptsYaml(accept: string | null): boolean {
  // Media types compare case-insensitively (negotiation lowercases them), so the check must too.
  return (accept ?? '').toLowerCase().includes('yaml');
}
