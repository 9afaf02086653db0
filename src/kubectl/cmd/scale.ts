/**
 * `kubectl scale --replicas=N TYPE NAME`: the scale subresource patched
 * (or, with `--current-replicas`/`--resource-version`, read, checked and
 * updated), "scaled" for each object.
 */

import type { KubeObject } from '../../api/meta';
import { withQuery } from '../../client';
import type { Command } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { filenameFlags, infosFromArgs, infosFromFiles } from '../resource/builder';
import { objectPath, resolveObjects } from '../resource/visit';
import { checkOutput, dryRunStrategy, printResult, writeFlags } from './mutation';

export const scaleCommand: Command = {
  name: 'scale',
  short: 'Set a new size for a deployment, replica set, or replication controller',
  flags: [
    ...writeFlags('kubectl-scale').filter(
      (fl) => fl.name !== 'validate' && fl.name !== 'save-config' && fl.name !== 'field-manager',
    ),
    ...filenameFlags,
    { name: 'replicas', type: 'int', default: '0' },
    { name: 'current-replicas', type: 'int', default: '-1' },
    { name: 'resource-version', type: 'string' },
    { name: 'all', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'timeout', type: 'duration', default: '0s' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    if (!f.changed.has('replicas')) throw new KubectlError('error: required flag(s) "replicas" not set');
    const replicas = f.int('replicas');
    if (replicas < 0)
      throw new KubectlError(
        'error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0',
      );
    const dryRun = dryRunStrategy(ctx);
    await checkOutput(ctx);
    const filenames = f.strings('filename');
    const built =
      filenames.length > 0
        ? await infosFromFiles(ctx, filenames, f.bool('recursive'))
        : await infosFromArgs(ctx, ctx.args);
    const ignored: unknown[] = [];
    const objects = await resolveObjects(ctx, built.infos, ignored, { labelSelector: f.string('selector') });
    if (objects.length === 0) throw new KubectlError('error: no objects passed to scale');
    const client = await ctx.f.client();
    const errors: unknown[] = [];
    const current = f.int('current-replicas');
    const version = f.string('resource-version');
    for (const { info, name, object } of objects) {
      try {
        if (dryRun === 'client') {
          await printResult(ctx, object, 'scaled', dryRun);
          continue;
        }
        const query: Record<string, string> = dryRun === 'server' ? { dryRun: 'All' } : {};
        if (current !== -1 || version !== '') {
          const scale = (
            await client.send<KubeObject & { spec?: { replicas?: number } }>(
              'GET',
              objectPath(info, name, 'scale'),
            )
          ).body;
          const actual = scale.spec?.replicas ?? 0;
          if (current !== -1 && actual !== current)
            throw new KubectlError(`error: Expected replicas to be ${current}, was ${actual}`);
          if (version !== '' && scale.metadata?.resourceVersion !== version)
            throw new KubectlError(
              `error: Expected resource version to be ${version}, was ${scale.metadata?.resourceVersion}`,
            );
          await client.send('PUT', withQuery(objectPath(info, name, 'scale'), query), {
            body: { ...scale, spec: { ...scale.spec, replicas } },
          });
        } else {
          await client.send('PATCH', withQuery(objectPath(info, name, 'scale'), query), {
            body: { spec: { replicas } },
            contentType: 'application/merge-patch+json',
          });
        }
        await printResult(ctx, object, 'scaled', dryRun);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
