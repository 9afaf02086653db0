/**
 * Completion for the YAML editor from the server's own descriptions:
 * `apiVersion` from discovery, `kind` from the kinds of that apiVersion, and
 * below them the fields of the kind's OpenAPI schema (type and description
 * beside each; required ones first), enum values and booleans for values.
 */

import type {
  Completion,
  CompletionContext,
  CompletionResult,
  CompletionSource,
} from '@codemirror/autocomplete';
import type { DiscoveredGroupVersion } from '../../../client/index';
import type { OpenApiSchemas } from './openapi';
import { schemaAt } from './schema-walk';
import { cursorContext } from './yaml-path';

export interface CompletionDeps {
  schemas: OpenApiSchemas;
  groupVersions: () => DiscoveredGroupVersion[];
}

export function schemaCompletion(deps: CompletionDeps): CompletionSource {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const text = context.state.doc.toString();
    const at = cursorContext(text, context.pos);
    if (at === undefined) return null;
    // Typing a word opens the list; on an empty position only Ctrl-Space does (a list after every Enter is noise).
    if (!context.explicit && at.word === '') return null;
    const from = context.pos - at.word.length;
    const header = documentHeader(text);

    if (at.path.length === 0 && at.mode === 'value') {
      if (at.key === 'apiVersion') {
        return result(
          from,
          deps.groupVersions().map((gv) => ({
            label: gv.groupVersion,
            type: 'constant',
            detail: gv.preferred ? 'preferred' : '',
          })),
        );
      }
      if (at.key === 'kind') {
        const gv = deps.groupVersions().find((g) => g.groupVersion === header.apiVersion);
        const kinds = gv?.resources.map((r) => r.kind) ?? [
          ...new Set(deps.groupVersions().flatMap((g) => g.resources.map((r) => r.kind))),
        ];
        return result(
          from,
          [...new Set(kinds)].map((kind) => ({ label: kind, type: 'class' })),
        );
      }
    }
    if (header.apiVersion === undefined || header.kind === undefined) {
      if (at.path.length === 0 && at.mode === 'key')
        return result(
          from,
          ['apiVersion', 'kind', 'metadata'].map((label) => ({
            label,
            type: 'property',
            apply: `${label}: `,
          })),
        );
      return null;
    }
    const root = await deps.schemas.kindSchema(header.apiVersion, header.kind).catch(() => undefined);
    if (root === undefined) return null;

    if (at.mode === 'key') {
      const here = schemaAt(root, at.path);
      const properties = here?.node.properties;
      if (here === undefined || properties === undefined) return null;
      const required = new Set(here.node.required ?? []);
      const options = Object.keys(properties).map((name): Completion => {
        const child = here.property(name);
        const label = child?.label() ?? '';
        const nested = label.startsWith('[]') || (child?.acceptedTypes()?.has('object') ?? false);
        const option: Completion = {
          label: name,
          type: 'property',
          detail: required.has(name) ? `${label} · required` : label,
          apply: nested ? `${name}:\n` : `${name}: `,
          boost: required.has(name) ? 2 : 0,
        };
        const description = child?.node.description ?? properties[name]?.description;
        if (description !== undefined) option.info = description;
        return option;
      });
      return result(from, options);
    }

    const target = schemaAt(root, [...at.path, at.key ?? '']);
    if (target === undefined) return null;
    if (target.node.enum !== undefined)
      return result(
        from,
        target.node.enum.map((value) => ({ label: String(value), type: 'enum' })),
      );
    if (target.acceptedTypes()?.has('boolean'))
      return result(from, [
        { label: 'true', type: 'keyword' },
        { label: 'false', type: 'keyword' },
      ]);
    return null;
  };
}

function result(from: number, options: Completion[]): CompletionResult {
  return { from, options, validFor: /^[\w.\-/]*$/ };
}

/** The document's top-level apiVersion and kind, read with a pattern (the text may not parse yet). */
export function documentHeader(text: string): { apiVersion?: string; kind?: string } {
  const first = text.split(/^---\s*$/m).find((part) => part.trim() !== '') ?? '';
  const apiVersion = /^apiVersion:\s*["']?([^\s"'#]+)/m.exec(first)?.[1];
  const kind = /^kind:\s*["']?([^\s"'#]+)/m.exec(first)?.[1];
  const header: { apiVersion?: string; kind?: string } = {};
  if (apiVersion !== undefined) header.apiVersion = apiVersion;
  if (kind !== undefined) header.kind = kind;
  return header;
}
