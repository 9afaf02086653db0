/**
 * `kubectl patch TYPE NAME -p PATCH`: a strategic (default), JSON merge or
 * JSON patch sent to the object (or `--subresource`); "patched", or
 * "patched (no change)" when the server's answer equals what it had.
 */

import type { KubeObject } from '../../api/meta';
import { withQuery, type PatchContentType } from '../../client';
import { parse } from 'yaml';
import type { Command } from '../command';
import { AggregateError, KubectlError, usageError } from '../errors';
import { filenameFlags, infosFromArgs, infosFromFiles } from '../resource/builder';
import { objectPath, resolveObjects } from '../resource/visit';
import { deepEqual } from './apply/three-way';
import { checkOutput, dryRunStrategy, printResult, writeFlags, writeQuery } from './mutation';

const types: Record<string, PatchContentType> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

export const patchCommand: Command = {
  name: 'patch',
  short: 'Update fields of a resource',
  flags: [
    ...writeFlags('kubectl-patch'),
    ...filenameFlags,
    { name: 'patch', shorthand: 'p', type: 'string' },
    { name: 'patch-file', type: 'string' },
    { name: 'type', type: 'string', default: 'strategic' },
    { name: 'local', type: 'bool', noOptDefVal: 'true' },
    { name: 'subresource', type: 'string' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    let patchText = f.string('patch');
    const patchFile = f.string('patch-file');
    if (patchText !== '' && patchFile !== '')
      throw new KubectlError('error: cannot specify --patch and --patch-file together');
    if (patchFile !== '') {
      const text = await ctx.io.files.read(patchFile);
      if (text === undefined)
        throw new KubectlError(
          `error: unable to read patch file: open ${patchFile}: no such file or directory`,
        );
      patchText = text;
    }
    if (patchText === '')
      throw new KubectlError(
        'error: must specify --patch or --patch-file containing the contents of the patch',
      );
    const type = f.string('type').toLowerCase();
    const contentType = types[type];
    if (contentType === undefined)
      throw new KubectlError(
        `error: --type must be one of [json merge strategic], not "${f.string('type')}"`,
      );
    const dryRun = dryRunStrategy(ctx);
    await checkOutput(ctx);
    const filenames = f.strings('filename');
    if (ctx.args.length === 0 && filenames.length === 0)
      throw usageError(ctx.path, 'You must provide one or more resources by argument or filename.');
    let body = patchText.trim();
    if (!body.startsWith('{') && !body.startsWith('[')) {
      try {
        body = JSON.stringify(parse(patchText, { version: '1.1' }));
      } catch (error) {
        throw new KubectlError(`error: unable to parse "${patchText}": ${(error as Error).message}`);
      }
    }
    const built =
      filenames.length > 0
        ? await infosFromFiles(ctx, filenames, f.bool('recursive'))
        : await infosFromArgs(ctx, ctx.args);
    const errors: unknown[] = [];
    const objects = await resolveObjects(ctx, built.infos, errors);
    const client = await ctx.f.client();
    const subresource = f.string('subresource') || undefined;
    for (const { info, name, object } of objects) {
      if (dryRun === 'client') {
        await printResult(ctx, object, 'patched', dryRun);
        continue;
      }
      try {
        const query = writeQuery(ctx, dryRun, f.string('field-manager'));
        delete query['fieldValidation'];
        const r = await client.send<KubeObject>(
          'PATCH',
          withQuery(objectPath(info, name, subresource), query),
          {
            body,
            contentType,
          },
        );
        await printResult(ctx, r.body, deepEqual(object, r.body) ? 'patched (no change)' : 'patched', dryRun);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
