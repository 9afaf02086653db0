/**
 * `kubectl get` (pkg/cmd/get): lists or reads resources and prints them —
 * human-readable from the server's Table (asked for with kubectl's own
 * Accept header, so a server that cannot render one for the group answers
 * with objects and the default NAME/AGE form prints instead), or with a
 * generic printer (json, yaml, name, jsonpath, custom-columns, templates)
 * over one object, or over a List of everything found. Errors for single
 * names are collected and printed after what was found; an empty result
 * says "No resources found". `--raw` prints a path's body; `-w` streams
 * changes until interrupted.
 */

import type { KubeList, KubeObject } from '../../api/meta';
import { ApiError, resourcePath, withQuery, type Table, type QueryParams } from '../../client';
import type { Command, CommandContext } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { HumanPrinter } from '../printers/table';
import {
  isHumanReadable,
  makePrinter,
  printFlags,
  relaxedJsonPath,
  withoutManagedFields,
} from '../printers/output';
import { JsonPath } from '../printers/jsonpath';
import { tabwrite } from '../printers/tabwriter';
import { filenameFlags, infosFromArgs, infosFromFiles, type Info } from '../resource/builder';
import { kindName } from '../restmapper';

export const tableAccept =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

export const getCommand: Command = {
  name: 'get',
  short: 'Display one or many resources',
  flags: [
    ...printFlags,
    ...filenameFlags,
    { name: 'raw', type: 'string' },
    { name: 'watch', shorthand: 'w', type: 'bool', noOptDefVal: 'true' },
    { name: 'watch-only', type: 'bool', noOptDefVal: 'true' },
    { name: 'output-watch-events', type: 'bool', noOptDefVal: 'true' },
    { name: 'chunk-size', type: 'int64', default: '500' },
    { name: 'ignore-not-found', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'field-selector', type: 'string' },
    { name: 'all-namespaces', shorthand: 'A', type: 'bool', noOptDefVal: 'true' },
    { name: 'label-columns', shorthand: 'L', type: 'stringSlice' },
    { name: 'show-kind', type: 'bool', noOptDefVal: 'true' },
    { name: 'show-labels', type: 'bool', noOptDefVal: 'true' },
    { name: 'sort-by', type: 'string' },
    { name: 'no-headers', type: 'bool', noOptDefVal: 'true' },
    { name: 'server-print', type: 'bool', default: 'true', noOptDefVal: 'true' },
    { name: 'subresource', type: 'string' },
  ],
  run: runGet,
};

async function runGet(ctx: CommandContext): Promise<number> {
  const { flags } = ctx;
  const raw = flags.string('raw');
  if (raw !== '') return getRaw(ctx, raw);
  const output = flags.string('output');
  const filenames = flags.strings('filename');
  if (ctx.args.length === 0 && filenames.length === 0) {
    ctx.err(
      'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\n',
    );
    throw new KubectlError(
      `error: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\nSee '${ctx.path} -h' for help and examples`,
    );
  }
  const human = isHumanReadable(output);
  // Validate the printer before any request, as kubectl does.
  const generic = human
    ? undefined
    : await makePrinter(output, {
        io: ctx.io,
        noHeaders: flags.bool('no-headers'),
        template: flags.string('template'),
      });
  const allNamespaces = flags.bool('all-namespaces');
  const built =
    filenames.length > 0
      ? await infosFromFiles(ctx, filenames, flags.bool('recursive'))
      : await infosFromArgs(ctx, ctx.args, { allNamespaces });
  const { infos, singleItemImplied } = built;
  if (flags.bool('watch') || flags.bool('watch-only')) return watch(ctx, infos, human);
  const sortBy = flags.string('sort-by');
  const client = await ctx.f.client();
  const errors: unknown[] = [];
  const results: { info: Info; object: KubeObject | Table }[] = [];
  for (const info of infos) {
    const query: QueryParams = {};
    if (human && flags.bool('server-print') && sortBy !== '') query['includeObject'] = 'Object';
    const accept = human && flags.bool('server-print') ? tableAccept : 'application/json';
    try {
      if (info.name !== undefined) {
        const path = resourcePath({
          group: info.mapping.group,
          version: info.mapping.version,
          resource: info.mapping.resource,
          ...(info.namespace !== '' ? { namespace: info.namespace } : {}),
          name: info.name,
          ...(flags.string('subresource') !== '' ? { subresource: flags.string('subresource') } : {}),
        });
        const r = await client.send<KubeObject>('GET', withQuery(path, query), { accept });
        results.push({ info, object: r.body });
      } else {
        const list = await listAll(ctx, info, accept, query);
        for (const object of list) results.push({ info, object });
      }
    } catch (error) {
      if (flags.bool('ignore-not-found') && error instanceof ApiError && error.reason === 'NotFound')
        continue;
      errors.push(error);
    }
  }
  if (!human) {
    if (singleItemImplied && errors.length > 0) throw errors[0];
    const printer = generic as NonNullable<typeof generic>;
    let objects = results.flatMap((r) => flattenList(r.object as KubeObject));
    if (sortBy !== '') objects = sortObjects(objects, sortBy);
    if (!flags.bool('show-managed-fields')) objects = objects.map(withoutManagedFields);
    if (results.length === 0 && flags.bool('ignore-not-found')) return finish(errors);
    const obj: KubeObject =
      singleItemImplied && objects.length === 1
        ? (objects[0] as KubeObject)
        : { apiVersion: 'v1', items: objects, kind: 'List', metadata: { resourceVersion: '' } };
    ctx.out(printer.print(obj));
    return finish(errors);
  }
  // Human-readable: one printer per mapping, a blank line between kinds.
  const kinds = new Set(results.map((r) => `${r.info.mapping.group}/${r.info.mapping.kind}`));
  const withKind = kinds.size > 1 || flags.bool('show-kind');
  const now = ctx.io.now();
  let written = 0;
  let allNamespaced = !allNamespaces;
  let lastKey: string | undefined;
  let printer: HumanPrinter | undefined;
  let buffer = '';
  const flush = () => {
    if (buffer !== '') {
      ctx.out(tabwrite(buffer));
      written += buffer.length;
    }
    buffer = '';
  };
  let objects: { info: Info; object: KubeObject | Table }[] = results.flatMap((r) =>
    isTable(r.object) ? [r] : flattenList(r.object).map((object) => ({ info: r.info, object })),
  );
  if (sortBy !== '') objects = sortHuman(objects, sortBy);
  for (const { info, object } of objects) {
    allNamespaced = allNamespaced && info.mapping.namespaced;
    const key = `${info.mapping.group}/${info.mapping.resource}`;
    if (printer === undefined || key !== lastKey) {
      flush();
      if (lastKey !== undefined && !flags.bool('no-headers') && written > 0) buffer += '\n';
      printer = new HumanPrinter(
        {
          noHeaders: flags.bool('no-headers'),
          wide: flags.string('output') === 'wide',
          withNamespace: allNamespaces && info.mapping.namespaced,
          showLabels: flags.bool('show-labels'),
          columnLabels: flags.strings('label-columns'),
          ...(withKind ? { kind: kindName(info.mapping) } : {}),
        },
        now,
      );
      lastKey = key;
    }
    const text = printer.print(object);
    if (text === '' && buffer === '\n') buffer = '';
    buffer += text;
  }
  flush();
  if (written === 0 && !flags.bool('ignore-not-found') && errors.length === 0) {
    const { namespace } = await ctx.f.namespace();
    ctx.err(allNamespaced ? `No resources found in ${namespace} namespace.\n` : 'No resources found\n');
  }
  return finish(errors);
}

function finish(errors: unknown[]): number {
  if (errors.length === 0) return 0;
  throw new AggregateError(errors);
}

function isTable(o: unknown): o is Table {
  return typeof o === 'object' && o !== null && (o as { kind?: unknown }).kind === 'Table';
}

function flattenList(o: KubeObject | Table): KubeObject[] {
  if (isTable(o)) return [o as unknown as KubeObject];
  if (Array.isArray((o as { items?: unknown }).items)) {
    // Items of a list lack apiVersion and kind on some servers; the list's own names them.
    const list = o as unknown as KubeList;
    const kind = (list.kind ?? '').replace(/List$/, '');
    return list.items.map((item) => ({ apiVersion: list.apiVersion, kind, ...item }));
  }
  return [o];
}

/** Lists a resource page by page (`--chunk-size`), returning each page's body. */
async function listAll(
  ctx: CommandContext,
  info: Info,
  accept: string,
  extra: QueryParams,
): Promise<(KubeObject | Table)[]> {
  const client = await ctx.f.client();
  const chunk = ctx.flags.int('chunk-size');
  const pages: (KubeObject | Table)[] = [];
  let cont: string | undefined;
  do {
    const query: QueryParams = { ...extra };
    const selector = ctx.flags.has('selector') ? ctx.flags.string('selector') : '';
    const fieldSelector = ctx.flags.has('field-selector') ? ctx.flags.string('field-selector') : '';
    if (selector !== '') query['labelSelector'] = selector;
    if (fieldSelector !== '') query['fieldSelector'] = fieldSelector;
    if (chunk > 0) query['limit'] = chunk;
    if (cont !== undefined) query['continue'] = cont;
    const path = resourcePath({
      group: info.mapping.group,
      version: info.mapping.version,
      resource: info.mapping.resource,
      ...(info.namespace !== '' ? { namespace: info.namespace } : {}),
    });
    const r = await client.send<KubeObject & { metadata?: { continue?: string } }>(
      'GET',
      withQuery(path, query),
      {
        accept,
      },
    );
    pages.push(r.body);
    const next = (r.body.metadata as { continue?: string } | undefined)?.continue;
    cont = next !== undefined && next !== '' ? next : undefined;
  } while (cont !== undefined);
  return pages;
}

async function getRaw(ctx: CommandContext, path: string): Promise<number> {
  const client = await ctx.f.client();
  const response = await client.raw('GET', path);
  const text = await response.text();
  if (!response.ok) {
    const { errorFromResponse } = await import('../../client/errors');
    throw await errorFromResponse(new Response(text, { status: response.status, headers: response.headers }));
  }
  ctx.out(text);
  return 0;
}

function sortValue(obj: unknown, jp: JsonPath): unknown {
  const values = jp.results(obj).flat();
  return values[0];
}

function compareValues(a: unknown, b: unknown): number {
  if (a === undefined && b === undefined) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = typeof a === 'string' ? a : JSON.stringify(a);
  const sb = typeof b === 'string' ? b : JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function sortObjects(objects: KubeObject[], sortBy: string): KubeObject[] {
  const jp = new JsonPath(relaxedJsonPath(sortBy), { allowMissingKeys: true });
  return [...objects].sort((a, b) => compareValues(sortValue(a, jp), sortValue(b, jp)));
}

function sortHuman(
  objects: { info: Info; object: KubeObject | Table }[],
  sortBy: string,
): { info: Info; object: KubeObject | Table }[] {
  const jp = new JsonPath(relaxedJsonPath(sortBy), { allowMissingKeys: true });
  return objects
    .map((entry) => {
      if (!isTable(entry.object)) return entry;
      const rows = [...entry.object.rows].sort((a, b) =>
        compareValues(sortValue(a.object, jp), sortValue(b.object, jp)),
      );
      return { info: entry.info, object: { ...entry.object, rows } };
    })
    .sort((a, b) =>
      isTable(a.object) || isTable(b.object)
        ? 0
        : compareValues(sortValue(a.object, jp), sortValue(b.object, jp)),
    );
}

/** `-w`/`--watch-only`: the list (unless watch-only), then every change as a row, until interrupted. */
async function watch(ctx: CommandContext, infos: Info[], human: boolean): Promise<number> {
  if (infos.length !== 1) throw new KubectlError('error: you may only specify a single resource type');
  const info = infos[0] as Info;
  const client = await ctx.f.client();
  const accept = human ? tableAccept : 'application/json';
  const ref = {
    group: info.mapping.group,
    version: info.mapping.version,
    resource: info.mapping.resource,
    ...(info.namespace !== '' ? { namespace: info.namespace } : {}),
  };
  const query: QueryParams = {};
  if (ctx.flags.string('selector') !== '') query['labelSelector'] = ctx.flags.string('selector');
  if (ctx.flags.string('field-selector') !== '') query['fieldSelector'] = ctx.flags.string('field-selector');
  if (info.name !== undefined) query['fieldSelector'] = `metadata.name=${info.name}`;
  const listed = await client.send<KubeObject & { metadata: { resourceVersion?: string } }>(
    'GET',
    withQuery(resourcePath(ref), query),
    { accept },
  );
  const printer = new HumanPrinter(
    {
      noHeaders: ctx.flags.bool('no-headers'),
      wide: ctx.flags.string('output') === 'wide',
      withNamespace: ctx.flags.bool('all-namespaces') && info.mapping.namespaced,
      showLabels: ctx.flags.bool('show-labels'),
      columnLabels: ctx.flags.strings('label-columns'),
    },
    ctx.io.now(),
  );
  const generic = human ? undefined : await makePrinter(ctx.flags.string('output'), { io: ctx.io });
  const show = (o: KubeObject | Table) => {
    if (generic !== undefined) ctx.out(generic.print(withoutManagedFields(o as KubeObject)));
    else ctx.out(tabwrite(printer.print(o)));
  };
  if (!ctx.flags.bool('watch-only')) {
    if (isTable(listed.body)) show(listed.body);
    else for (const o of flattenList(listed.body)) show(o);
  }
  const signal = ctx.io.signal;
  try {
    for await (const event of client.watch(
      ref,
      { ...query, resourceVersion: listed.body.metadata?.resourceVersion ?? '' },
      signal,
      accept,
    )) {
      if (event.type === 'BOOKMARK' || event.type === 'ERROR') continue;
      show(event.object as KubeObject | Table);
    }
  } catch (error) {
    if (signal?.aborted) return 0;
    throw error;
  }
  return 0;
}
