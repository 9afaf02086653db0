/**
 * What `kubectl label` and `kubectl annotate` share: resources first, then
 * `key=value` and `key-` pairs; each object's map changed (refusing to
 * overwrite a different value without `--overwrite`), sent as a JSON merge
 * patch of the old and new object, and the result worded as each command
 * words it.
 */

import type { KubeObject } from '../../api/meta';
import { withQuery } from '../../client';
import type { Command, CommandContext } from '../command';
import { AggregateError, KubectlError, usageError } from '../errors';
import { filenameFlags, infosFromArgs, infosFromFiles } from '../resource/builder';
import { objectPath, resolveObjects } from '../resource/visit';
import { deepEqual } from './apply/three-way';
import { checkOutput, dryRunStrategy, printResult, writeFlags } from './mutation';
import { goJson } from '../printers/json';

type Which = 'label' | 'annotate';

export function splitResourcesAndPairs(
  args: string[],
  pairType: string,
): { resources: string[]; pairs: string[] } {
  const resources: string[] = [];
  const pairs: string[] = [];
  let foundPair = false;
  for (const s of args) {
    const nonResource = (s.includes('=') && s[0] !== '=') || (s.endsWith('-') && s !== '-');
    if (nonResource) {
      foundPair = true;
      pairs.push(s);
    } else if (!foundPair) resources.push(s);
    else throw new KubectlError(`error: all resources must be specified before ${pairType} changes: ${s}`);
  }
  return { resources, pairs };
}

function parsePairs(pairs: string[], which: Which): { set: [string, string][]; remove: string[] } {
  const set: [string, string][] = [];
  const remove: string[] = [];
  for (const p of pairs) {
    if (p.includes('=')) {
      const eq = p.indexOf('=');
      const key = p.slice(0, eq);
      const value = p.slice(eq + 1);
      if (which === 'label' && !/^(([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?)$/.test(value))
        throw new KubectlError(
          `error: invalid label value: "${p}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
        );
      set.push([key, value]);
    } else remove.push(p.slice(0, -1));
  }
  for (const r of remove)
    if (set.some(([k]) => k === r))
      throw new KubectlError(
        `error: can not both modify and remove ${which === 'label' ? 'a label' : 'an annotation'} in the same command`,
      );
  return { set, remove };
}

function mergePatch(before: unknown, after: unknown): unknown {
  if (
    typeof before !== 'object' ||
    before === null ||
    Array.isArray(before) ||
    typeof after !== 'object' ||
    after === null ||
    Array.isArray(after)
  )
    return after;
  const patch: Record<string, unknown> = {};
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!(k in a)) patch[k] = null;
  for (const k of Object.keys(a)) {
    if (!(k in b)) patch[k] = a[k];
    else if (!deepEqual(b[k], a[k])) patch[k] = mergePatch(b[k], a[k]);
  }
  return patch;
}

export function labelAnnotateCommand(which: Which): Command {
  const field = which === 'label' ? 'labels' : 'annotations';
  return {
    name: which,
    short: which === 'label' ? 'Update the labels on a resource' : 'Update the annotations on a resource',
    flags: [
      ...writeFlags(which === 'label' ? 'kubectl-label' : 'kubectl-annotate').filter(
        (fl) => fl.name !== 'validate' && fl.name !== 'save-config',
      ),
      ...filenameFlags,
      { name: 'overwrite', type: 'bool', noOptDefVal: 'true' },
      { name: 'local', type: 'bool', noOptDefVal: 'true' },
      { name: 'list', type: 'bool', noOptDefVal: 'true' },
      { name: 'all', type: 'bool', noOptDefVal: 'true' },
      { name: 'all-namespaces', shorthand: 'A', type: 'bool', noOptDefVal: 'true' },
      { name: 'selector', shorthand: 'l', type: 'string' },
      { name: 'field-selector', type: 'string' },
      { name: 'resource-version', type: 'string' },
    ],
    async run(ctx) {
      return run(ctx, which, field);
    },
  };
}

async function run(ctx: CommandContext, which: Which, field: 'labels' | 'annotations'): Promise<number> {
  const f = ctx.flags;
  const { resources, pairs } = splitResourcesAndPairs(ctx.args, which);
  const filenames = f.strings('filename');
  if (pairs.length === 0 && !f.bool('list'))
    throw new KubectlError(
      `error: at least one ${which === 'label' ? 'label' : 'annotation'} update is required`,
    );
  if (resources.length === 0 && filenames.length === 0)
    throw usageError(
      ctx.path,
      'one or more resources must be specified as <resource> <name> or <resource>/<name>',
    );
  const { set, remove } = parsePairs(pairs, which);
  const dryRun = dryRunStrategy(ctx);
  await checkOutput(ctx);
  const built =
    filenames.length > 0
      ? await infosFromFiles(ctx, filenames, f.bool('recursive'))
      : await infosFromArgs(ctx, resources, { allNamespaces: f.bool('all-namespaces') });
  const errors: unknown[] = [];
  const unnamed = built.infos.filter((i) => i.name === undefined);
  if (
    unnamed.length > 0 &&
    !f.bool('all') &&
    f.string('selector') === '' &&
    f.string('field-selector') === ''
  )
    throw new KubectlError('error: resource(s) were provided, but no name was specified');
  const objects = await resolveObjects(ctx, built.infos, errors, {
    labelSelector: f.string('selector'),
    fieldSelector: f.string('field-selector'),
  });
  const client = await ctx.f.client();
  for (const { info, name, object } of objects) {
    const current = { ...((object.metadata?.[field] as Record<string, string> | undefined) ?? {}) };
    if (f.bool('list')) {
      ctx.out(`Listing ${field} for ${info.mapping.kind}.${info.mapping.group}/${name}:\n`);
      for (const [k, v] of Object.entries(current)) ctx.out(` ${k}=${v}\n`);
      continue;
    }
    try {
      if (!f.bool('overwrite')) {
        if (which === 'label') {
          const clashes = set.filter(([k, v]) => current[k] !== undefined && current[k] !== v);
          if (clashes.length > 0)
            throw new KubectlError(
              clashes
                .map(([k]) => `error: '${k}' already has a value (${current[k]}), and --overwrite is false`)
                .join('\n'),
            );
        } else {
          const clashes = set.filter(
            ([k, v]) => k !== 'kubernetes.io/change-cause' && current[k] !== undefined && current[k] !== v,
          );
          if (clashes.length > 0)
            throw new KubectlError(
              `error: --overwrite is false but found the following declared annotation(s): ${clashes.map(([k]) => `'${k}' already has a value (${current[k]})`).join('; ')}`,
            );
        }
      }
      const next = { ...current };
      for (const [k, v] of set) next[k] = v;
      for (const k of remove) {
        if (!(k in next) && which === 'label') ctx.out(`label "${k}" not found.\n`);
        delete next[k];
      }
      const before: KubeObject = object;
      const after: KubeObject = { ...object, metadata: { ...object.metadata, [field]: next } };
      if (f.string('resource-version') !== '')
        after.metadata = { ...after.metadata, resourceVersion: f.string('resource-version') };
      const oldText = goJson(before);
      const newText = goJson(after);
      let message: string;
      if (which === 'label') {
        message = 'not labeled';
        if (oldText !== newText)
          message = !f.bool('overwrite') && newText.length < oldText.length ? 'unlabeled' : 'labeled';
      } else message = 'annotate';
      if (dryRun === 'client' || f.bool('local')) {
        await printResult(ctx, after, message, dryRun);
        continue;
      }
      const patch = mergePatch({ metadata: before.metadata }, { metadata: after.metadata });
      const query: Record<string, string> = {};
      if (dryRun === 'server') query['dryRun'] = 'All';
      query['fieldManager'] = f.string('field-manager');
      const r = await client.send<KubeObject>('PATCH', withQuery(objectPath(info, name), query), {
        body: patch,
        contentType: 'application/merge-patch+json',
      });
      await printResult(ctx, r.body, message, dryRun);
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors);
  return 0;
}

export const labelCommand = labelAnnotateCommand('label');
export const annotateCommand = labelAnnotateCommand('annotate');
