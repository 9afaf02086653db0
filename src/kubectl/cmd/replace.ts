/**
 * `kubectl replace -f FILE`: each object PUT over the stored one (the
 * stored resourceVersion is used when the file has none); `--force`
 * deletes and re-creates.
 */

import type { KubeObject } from '../../api/meta';
import { withQuery } from '../../client';
import type { Command } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { filenameFlags, infosFromFiles } from '../resource/builder';
import { objectPath } from '../resource/visit';
import { checkOutput, dryRunStrategy, printResult, writeFlags, writeQuery } from './mutation';
import { addSourceToError } from './source-error';

export const replaceCommand: Command = {
  name: 'replace',
  short: 'Replace a resource by file name or stdin',
  flags: [
    ...writeFlags('kubectl-replace'),
    ...filenameFlags,
    { name: 'force', type: 'bool', noOptDefVal: 'true' },
    { name: 'grace-period', type: 'int', default: '-1' },
    { name: 'cascade', type: 'string', default: 'background', noOptDefVal: 'background' },
    { name: 'timeout', type: 'duration', default: '0s' },
    { name: 'wait', type: 'bool', noOptDefVal: 'true' },
    { name: 'raw', type: 'string' },
    { name: 'subresource', type: 'string' },
  ],
  async run(ctx) {
    const filenames = ctx.flags.strings('filename');
    if (filenames.length === 0) throw new KubectlError('error: must specify one of -f and -k');
    const dryRun = dryRunStrategy(ctx);
    await checkOutput(ctx);
    const { infos } = await infosFromFiles(ctx, filenames, ctx.flags.bool('recursive'));
    const client = await ctx.f.client();
    const errors: unknown[] = [];
    for (const info of infos) {
      const object: KubeObject = { ...(info.object as KubeObject) };
      if (info.mapping.namespaced) object.metadata = { ...object.metadata, namespace: info.namespace };
      const name = info.name ?? '';
      try {
        if (ctx.flags.bool('force')) {
          await client.send('DELETE', objectPath(info, name), {
            body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
          });
          ctx.out(
            `${info.mapping.kind.toLowerCase()}${info.mapping.group ? `.${info.mapping.group}` : ''} "${name}" deleted\n`,
          );
          const r = await client.send<KubeObject>(
            'POST',
            withQuery(objectPath(info), writeQuery(ctx, dryRun)),
            { body: object },
          );
          await printResult(ctx, r.body, 'replaced', dryRun);
          continue;
        }
        if (dryRun === 'client') {
          await printResult(ctx, object, 'replaced', dryRun);
          continue;
        }
        if (object.metadata?.resourceVersion === undefined || object.metadata.resourceVersion === '') {
          const current = (await client.send<KubeObject>('GET', objectPath(info, name))).body;
          object.metadata = { ...object.metadata, resourceVersion: current.metadata?.resourceVersion ?? '' };
        }
        const r = await client.send<KubeObject>(
          'PUT',
          withQuery(objectPath(info, name), writeQuery(ctx, dryRun)),
          { body: object },
        );
        await printResult(ctx, r.body, 'replaced', dryRun);
      } catch (error) {
        errors.push(addSourceToError('replacing', info.source ?? '', error));
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
