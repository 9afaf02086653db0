/**
 * The `-o` formats kubectl's print flags accept, and the printer each one
 * makes: json, yaml, name, jsonpath (and -as-json, -file), custom-columns
 * (and -file), go-template (the simple field and range forms), and the
 * human-readable forms that `get` handles itself (default and wide).
 * Objects read from the server print with sorted keys; objects kubectl
 * builds itself (`typed`) keep their struct order in JSON.
 */

import type { KubeObject } from '../../api/meta';
import { parseApiVersion } from '../../client';
import { KubectlError } from '../errors';
import type { KubectlIO } from '../io';
import { goTemplate } from './go-template';
import { goJson } from './json';
import { JsonPath } from './jsonpath';
import { tabwrite } from './tabwriter';
import { toYaml } from './yaml';

export const allowedFormats =
  'custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml';

export interface Printer {
  /** Text for one object (a List prints its items where the format does). */
  print(obj: KubeObject, typed?: boolean): string;
}

export const outputFlag = {
  name: 'output',
  shorthand: 'o',
  type: 'string' as const,
};

export const printFlags = [
  outputFlag,
  { name: 'template', type: 'string' as const },
  { name: 'allow-missing-template-keys', type: 'bool' as const, default: 'true', noOptDefVal: 'true' },
  { name: 'show-managed-fields', type: 'bool' as const, noOptDefVal: 'true' },
];

/** Whether `-o` asks for a human-readable form (the default or wide). */
export function isHumanReadable(output: string): boolean {
  return output === '' || output === 'wide';
}

/** The printer for `-o`, reading template files through `io` when the format names one. */
export async function makePrinter(
  output: string,
  options: {
    io: KubectlIO;
    noHeaders?: boolean;
    template?: string;
    operation?: string;
    dryRunSuffix?: string;
  },
): Promise<Printer> {
  const eq = output.indexOf('=');
  const format = eq < 0 ? output : output.slice(0, eq);
  let arg = eq < 0 ? (options.template ?? '') : output.slice(eq + 1);
  if (format.endsWith('-file') || format === 'templatefile') {
    const text = await options.io.files.read(arg);
    if (text === undefined) throw new KubectlError(`error: open ${arg}: no such file or directory`);
    arg = text;
  }
  switch (format) {
    case 'json':
      return { print: (o, typed) => goJson(o, { indent: '    ', sortKeys: typed !== true }) + '\n' };
    case 'yaml': {
      let count = 0;
      return { print: (o) => (count++ > 0 ? '---\n' : '') + toYaml(o) };
    }
    case 'name':
      return {
        print: (o) =>
          listItems(o)
            .map(
              (item) =>
                nameOf(item) +
                (options.operation ? ` ${options.operation}${options.dryRunSuffix ?? ''}` : '') +
                '\n',
            )
            .join(''),
      };
    case 'jsonpath':
    case 'jsonpath-file':
    case 'jsonpath-as-json': {
      if (arg === '') throw new KubectlError('error: template format specified but no template given');
      let jp: JsonPath;
      try {
        jp = new JsonPath(arg, { allowMissingKeys: true, outputJson: format === 'jsonpath-as-json' });
      } catch (error) {
        throw new KubectlError(`error: error parsing jsonpath ${arg}, ${(error as Error).message}`);
      }
      return {
        print: (o) => {
          try {
            return jp.execute(o);
          } catch (error) {
            throw new KubectlError(
              `error: error executing jsonpath ${JSON.stringify(arg)}: Error executing template: ${(error as Error).message}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t${arg}\n\tobject given to jsonpath engine was:\n\t\t${JSON.stringify(o)}\n\n`,
            );
          }
        },
      };
    }
    case 'custom-columns':
    case 'custom-columns-file':
      return customColumns(
        format === 'custom-columns-file' ? fileSpec(arg) : arg,
        options.noHeaders === true,
      );
    case 'go-template':
    case 'go-template-file':
    case 'template':
    case 'templatefile': {
      if (arg === '') throw new KubectlError('error: template format specified but no template given');
      return { print: (o) => goTemplate(arg, o) };
    }
  }
  throw new KubectlError(
    `error: unable to match a printer suitable for the output format "${output}", allowed formats are: ${allowedFormats}`,
  );
}

/** A custom-columns file: a header line and a line of paths, whitespace-separated. */
function fileSpec(text: string): string {
  const [headers = '', paths = ''] = text.split('\n');
  const h = headers.trim().split(/\s+/);
  const p = paths.trim().split(/\s+/);
  return h.map((name, i) => `${name}:${p[i] ?? ''}`).join(',');
}

function customColumns(spec: string, noHeaders: boolean): Printer {
  if (spec === '')
    throw new KubectlError('error: custom-columns format specified but no custom columns given');
  const columns = spec.split(',').map((part) => {
    const colon = part.indexOf(':');
    if (colon < 0)
      throw new KubectlError(
        `error: unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`,
      );
    return {
      header: part.slice(0, colon),
      path: new JsonPath(relaxedJsonPath(part.slice(colon + 1)), { allowMissingKeys: true }),
    };
  });
  let printedHeaders = false;
  return {
    print: (o) => {
      let text = '';
      if (!noHeaders && !printedHeaders) {
        text += columns.map((c) => c.header).join('\t') + '\n';
        printedHeaders = true;
      }
      for (const item of listItems(o)) {
        text +=
          columns
            .map((c) => {
              const values = c.path.results(item);
              if (values.length === 0 || (values[0] as unknown[]).length === 0) return '<none>';
              return values.flat().map(goSprint).join(',');
            })
            .join('\t') + '\n';
      }
      return tabwrite(text);
    },
  };
}

/** kubectl's RelaxedJSONPathExpression: `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all mean `{.a.b}`. */
export function relaxedJsonPath(expression: string): string {
  if (expression === '') return expression;
  const m = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/.exec(expression);
  if (m === null)
    throw new KubectlError(
      "error: unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  return `{.${m[1] ?? m[2]}}`;
}

/** The items of a List, or the object itself. */
export function listItems(o: KubeObject): KubeObject[] {
  if (Array.isArray((o as { items?: unknown }).items) && (o.kind ?? '').endsWith('List'))
    return o.items as KubeObject[];
  return [o];
}

/** `kind.group/name` from an object's own apiVersion and kind. */
export function nameOf(o: KubeObject): string {
  const { group } = parseApiVersion(o.apiVersion ?? '');
  const kind = (o.kind ?? '').toLowerCase();
  return `${group === '' ? kind : `${kind}.${group}`}/${o.metadata?.name ?? ''}`;
}

/** fmt.Sprint of a JSON value. */
export function goSprint(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goSprint).join(' ')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `map[${Object.keys(record)
      .sort()
      .map((k) => `${k}:${goSprint(record[k])}`)
      .join(' ')}]`;
  }
  return value === null || value === undefined ? '<nil>' : String(value);
}

/** Removes managedFields as kubectl does unless --show-managed-fields. */
export function withoutManagedFields<T extends KubeObject>(o: T): T {
  if (Array.isArray((o as { items?: unknown }).items))
    return { ...o, items: (o.items as KubeObject[]).map(withoutManagedFields) };
  if (o.metadata?.managedFields === undefined) return o;
  const { managedFields: _m, ...metadata } = o.metadata;
  return { ...o, metadata };
}
