/**
 * `kubectl rollout status TYPE/NAME`: the workload's status line, then (with
 * the default `--watch`) one line per change until the rollout is done, the
 * object is deleted, `--timeout` passes ("timed out waiting for the
 * condition") or Ctrl-C. `--revision` pins a Deployment's revision.
 */

import type { KubeList, KubeObject } from '../../../api/meta';
import { resourcePath, withQuery } from '../../../client';
import type { Command, CommandContext } from '../../command';
import { AggregateError, KubectlError } from '../../errors';
import { parseGoDurationText } from '../../flags/pflag';
import type { Resolved } from '../../resource/visit';
import { resourceFlags, rolloutTargets } from './targets';
import { groupKindString, rolloutStatus, RolloutError, workloadKind, type WorkloadKind } from './workload';

export const rolloutStatusCommand: Command = {
  name: 'status',
  short: 'Show the status of the rollout',
  flags: [
    ...resourceFlags,
    { name: 'watch', shorthand: 'w', type: 'bool', default: 'true', noOptDefVal: 'true' },
    { name: 'revision', type: 'int64', default: '0' },
    { name: 'timeout', type: 'duration', default: '0s' },
  ],
  async run(ctx) {
    const revision = ctx.flags.int('revision');
    if (ctx.args.length === 0 && ctx.flags.strings('filename').length === 0)
      throw new KubectlError('error: required resource not specified');
    if (revision < 0) throw new KubectlError(`error: revision must be a positive integer: ${revision}`);
    const errors: unknown[] = [];
    const { objects } = await rolloutTargets(ctx, errors);
    if (errors.length > 0) throw new AggregateError(errors);
    const timeout = parseGoDurationText(ctx.flags.string('timeout'));
    for (const target of objects) {
      const kind = workloadKind(target.info.mapping);
      if (kind === undefined)
        throw new KubectlError(
          `error: no status viewer has been implemented for ${groupKindString(target.info.mapping)}`,
        );
      await follow(ctx, kind, target, revision, timeout);
    }
    return 0;
  },
};

/** Lists the one object, prints its status, then watches it until done (UntilWithSync). */
async function follow(
  ctx: CommandContext,
  kind: WorkloadKind,
  target: Resolved,
  revision: number,
  timeout: number,
): Promise<void> {
  const client = await ctx.f.client();
  const info = target.info;
  const ref = {
    group: info.mapping.group,
    version: info.mapping.version,
    resource: info.mapping.resource,
    ...(info.namespace !== '' ? { namespace: info.namespace } : {}),
  };
  const query = { fieldSelector: `metadata.name=${target.name}` };
  const show = (object: KubeObject): boolean => {
    try {
      const line = rolloutStatus(kind, object, revision);
      ctx.out(line.text);
      return line.done || !ctx.flags.bool('watch');
    } catch (error) {
      if (error instanceof RolloutError) throw new KubectlError(`error: ${error.message}`);
      throw error;
    }
  };
  const listed = (await client.send<KubeList>('GET', withQuery(resourcePath(ref), query))).body;
  const apiVersion = listed.apiVersion;
  const objectKind = listed.kind.replace(/List$/, '');
  for (const item of listed.items) if (show({ apiVersion, kind: objectKind, ...item })) return;
  const stop = new AbortController();
  const outer = ctx.io.signal;
  const onAbort = () => stop.abort();
  outer?.addEventListener('abort', onAbort);
  let timedOut = false;
  const timer =
    timeout > 0
      ? setTimeout(() => {
          timedOut = true;
          stop.abort();
        }, timeout)
      : undefined;
  let resourceVersion = listed.metadata?.resourceVersion ?? '';
  try {
    // A watch the server ends is resumed from the last version seen, as the reflector does.
    while (!stop.signal.aborted) {
      for await (const event of client.watch(ref, { ...query, resourceVersion }, stop.signal)) {
        const object = event.object as KubeObject;
        resourceVersion = object.metadata?.resourceVersion ?? resourceVersion;
        if (event.type === 'BOOKMARK' || event.type === 'ERROR') continue;
        if (event.type === 'DELETED') throw new KubectlError('error: object has been deleted');
        if (show(object)) return;
      }
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
  if (timedOut) throw new KubectlError('error: timed out waiting for the condition');
}
