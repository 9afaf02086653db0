/**
 * `kubectl create -f FILE` (each object POSTed to its collection, errors
 * named after their source and collected) and the generators under
 * `kubectl create <kind>`. `kubectl create` with neither prints kubectl's
 * "must specify one of -f and -k".
 */

import type { KubeObject } from '../../api/meta';
import { resourcePath, withQuery } from '../../client';
import type { Command } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { filenameFlags, infosFromFiles } from '../resource/builder';
import { createConfigMap } from './create/configmap';
import { createClusterRole, createClusterRoleBinding, createRole, createRoleBinding } from './create/rbac';
import { createPriorityClass, createQuota, createToken } from './create/misc';
import { createNamespace } from './create/namespace';
import { createSecret } from './create/secret';
import { createService } from './create/service';
import { createServiceAccount } from './create/serviceaccount';
import { createCronJob, createDeployment, createJob } from './create/workloads';
import { checkOutput, dryRunStrategy, printResult, writeFlags, writeQuery } from './mutation';
import { addSourceToError } from './source-error';
import { setLastApplied } from './apply/last-applied';

export const createCommand: Command = {
  name: 'create',
  short: 'Create a resource from a file or from stdin',
  flags: [
    ...writeFlags('kubectl-create'),
    ...filenameFlags,
    { name: 'edit', type: 'bool', noOptDefVal: 'true' },
    { name: 'raw', type: 'string' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'windows-line-endings', type: 'bool', noOptDefVal: 'true' },
  ],
  subcommands: [
    createClusterRole,
    createClusterRoleBinding,
    createConfigMap,
    createCronJob,
    createDeployment,
    createJob,
    createNamespace,
    createPriorityClass,
    createQuota,
    createRole,
    createRoleBinding,
    createSecret,
    createService,
    createServiceAccount,
    createToken,
  ],
  async run(ctx) {
    const filenames = ctx.flags.strings('filename');
    if (filenames.length === 0) {
      let text = 'Error: must specify one of -f and -k\n\n';
      if (ctx.args.length > 0) text += `error: unknown command "${ctx.args.join(' ')}"\n`;
      text += `See '${ctx.path} -h' for help and examples\n`;
      ctx.err(text);
      return 1;
    }
    const dryRun = dryRunStrategy(ctx);
    await checkOutput(ctx);
    const { infos } = await infosFromFiles(ctx, filenames, ctx.flags.bool('recursive'));
    if (infos.length === 0) throw new KubectlError('error: no objects passed to create');
    const client = await ctx.f.client();
    const errors: unknown[] = [];
    for (const info of infos) {
      const object = info.object as KubeObject;
      if (ctx.flags.bool('save-config')) {
        setLastApplied(object);
      }
      if (dryRun === 'client') {
        await printResult(ctx, object, 'created', dryRun);
        continue;
      }
      try {
        const path = resourcePath({
          group: info.mapping.group,
          version: info.mapping.version,
          resource: info.mapping.resource,
          ...(info.namespace !== '' ? { namespace: info.namespace } : {}),
        });
        const created = await client.send<KubeObject>('POST', withQuery(path, writeQuery(ctx, dryRun)), {
          body: object,
        });
        await printResult(ctx, created.body, 'created', dryRun);
      } catch (error) {
        errors.push(addSourceToError('creating', info.source ?? '', error));
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
