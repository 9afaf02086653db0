/**
 * `kubectl delete`: by name, `-f`, `-l`/`--field-selector` or `--all`,
 * with the cascade policy, grace period (`--now`, `--force`) and dry run
 * kubectl sends as DeleteOptions; `kind "name" deleted` for each object,
 * then (`--wait`, the default) waits until every deleted object is gone.
 * Named objects are not fetched first: a missing one is the DELETE's
 * NotFound, as in kubectl.
 */

import type { KubeObject } from '../../api/meta';
import { ApiError, withQuery } from '../../client';
import type { Command, CommandContext } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { parseGoDurationText } from '../flags/pflag';
import { filenameFlags, infosFromArgs, infosFromFiles, type Info } from '../resource/builder';
import { objectPath, resolveObjects } from '../resource/visit';
import { kindName } from '../restmapper';
import { dryRunFlag, dryRunStrategy } from './mutation';

export const deleteCommand: Command = {
  name: 'delete',
  short: 'Delete resources by file names, stdin, resources and names, or by resources and label selector',
  flags: [
    ...filenameFlags,
    dryRunFlag,
    { name: 'all', type: 'bool', noOptDefVal: 'true' },
    { name: 'all-namespaces', shorthand: 'A', type: 'bool', noOptDefVal: 'true' },
    { name: 'cascade', type: 'string', default: 'background', noOptDefVal: 'background' },
    { name: 'field-selector', type: 'string' },
    { name: 'force', type: 'bool', noOptDefVal: 'true' },
    { name: 'grace-period', type: 'int', default: '-1' },
    { name: 'ignore-not-found', type: 'bool', noOptDefVal: 'true' },
    { name: 'interactive', shorthand: 'i', type: 'bool', noOptDefVal: 'true' },
    { name: 'now', type: 'bool', noOptDefVal: 'true' },
    { name: 'output', shorthand: 'o', type: 'string' },
    { name: 'raw', type: 'string' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'timeout', type: 'duration', default: '0s' },
    { name: 'wait', type: 'bool', default: 'true', noOptDefVal: 'true' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    const filenames = f.strings('filename');
    const selector = f.string('selector');
    const fieldSelector = f.string('field-selector');
    const all = f.bool('all');
    if (ctx.args.length === 0 && filenames.length === 0)
      throw new KubectlError(
        "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
      );
    const dryRun = dryRunStrategy(ctx);
    let grace = f.int('grace-period');
    if (f.bool('now')) {
      if (grace !== -1)
        throw new KubectlError('error: --now and --grace-period cannot be specified together');
      grace = 1;
    }
    if (f.bool('force') && grace < 0) grace = 0;
    if (f.bool('force') && grace === 0)
      ctx.err(
        'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
      );
    const cascade = f.string('cascade');
    const policy = {
      background: 'Background',
      true: 'Background',
      foreground: 'Foreground',
      orphan: 'Orphan',
      false: 'Orphan',
    }[cascade];
    if (policy === undefined)
      throw new KubectlError(
        `error: invalid cascade value (${cascade}). Must be "background", "foreground", or "orphan".`,
      );
    const built =
      filenames.length > 0
        ? await infosFromFiles(ctx, filenames, f.bool('recursive'))
        : await infosFromArgs(ctx, ctx.args, { allNamespaces: f.bool('all-namespaces') });
    let infos = built.infos;
    const errors: unknown[] = [];
    const unnamed = infos.filter((i) => i.name === undefined);
    if (unnamed.length > 0) {
      if (!all && selector === '' && fieldSelector === '')
        throw new KubectlError('error: resource(s) were provided, but no name was specified');
      const listed = await resolveObjects(ctx, unnamed, errors, { labelSelector: selector, fieldSelector });
      infos = [...infos.filter((i) => i.name !== undefined), ...listed.map((r) => r.info)];
    }
    if (infos.length === 0 && errors.length === 0) {
      ctx.out('No resources found\n');
      return 0;
    }
    const client = await ctx.f.client();
    const deleted: (Info & { uid?: string })[] = [];
    for (let info of infos) {
      const name = info.name as string;
      const kind = kindName(info.mapping);
      const operation =
        (grace === 0 ? 'force deleted' : 'deleted') +
        (dryRun === 'client' ? ' (dry run)' : dryRun === 'server' ? ' (server dry run)' : '');
      if (dryRun !== 'client') {
        const options: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
        if (grace >= 0) options['gracePeriodSeconds'] = grace;
        options['propagationPolicy'] = policy;
        try {
          const answer = await client.send<KubeObject>(
            'DELETE',
            withQuery(objectPath(info, name), dryRun === 'server' ? { dryRun: 'All' } : {}),
            {
              body: options,
            },
          );
          const uid =
            answer.body?.metadata?.uid ??
            (answer.body as { details?: { uid?: string } } | undefined)?.details?.uid;
          if (uid !== undefined) info = { ...info, uid } as typeof info;
        } catch (error) {
          if (f.bool('ignore-not-found') && error instanceof ApiError && error.reason === 'NotFound')
            continue;
          errors.push(error);
          continue;
        }
      }
      if (f.string('output') === 'name') ctx.out(`${kind}/${name}\n`);
      else ctx.out(`${kind} "${name}" ${operation}\n`);
      deleted.push(info);
    }
    if (f.bool('wait') && dryRun === 'none' && deleted.length > 0) {
      const timeout = f.string('timeout');
      const ms = timeout === '0s' || timeout === '0' ? 7 * 24 * 3600 * 1000 : parseGoDurationText(timeout);
      await waitForDeletion(ctx, deleted, ms, errors);
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};

/** Polls each deleted object until the server no longer has it (or the timeout passes). */
export async function waitForDeletion(
  ctx: CommandContext,
  infos: (Info & { uid?: string })[],
  timeoutMs: number,
  errors: unknown[],
): Promise<boolean> {
  const client = await ctx.f.client();
  const deadline = Date.now() + timeoutMs;
  for (const info of infos) {
    for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
      try {
        const found = await client.send<KubeObject>('GET', objectPath(info, info.name));
        // A new object under the same name (a controller re-creating it) means the deleted one is gone.
        if (info.uid !== undefined && found.body.metadata?.uid !== info.uid) break;
      } catch (error) {
        if (error instanceof ApiError && error.reason === 'NotFound') break;
        errors.push(error);
        break;
      }
      if (Date.now() > deadline) {
        errors.push(
          new KubectlError(
            `error: timed out waiting for the condition on ${info.mapping.resource}/${info.name}`,
          ),
        );
        return false;
      }
      if (ctx.io.signal?.aborted) return false;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  return true;
}
