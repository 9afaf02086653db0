/**
 * `rollout restart`, `rollout pause` and `rollout resume`: one strategic
 * merge patch per object (field manager `kubectl-rollout`), computed as
 * kubectl's ObjectRestarter/Pauser/Resumer do — a restart stamps the pod
 * template with `kubectl.kubernetes.io/restartedAt`, pause and resume flip
 * a Deployment's `spec.paused` — with their refusals: a kind that cannot,
 * a Deployment already (not) paused, a paused one restarted.
 */

import type { KubeObject } from '../../../api/meta';
import { withQuery } from '../../../client';
import type { Command, CommandContext } from '../../command';
import { AggregateError, KubectlError } from '../../errors';
import { makePrinter, printFlags } from '../../printers/output';
import type { Resolved } from '../../resource/visit';
import { objectPath } from '../../resource/visit';
import { resourceFlags, rolloutTargets } from './targets';
import { workloadKind, type Obj } from './workload';

type Change = { patch: unknown; operation: string } | { error: string };

/** RFC 3339 in local time, as Go's time.Now().Format(time.RFC3339). */
export function rfc3339(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 19);
  if (offset === 0) return `${local}Z`;
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}

function restart(target: Resolved, now: Date): Change {
  const kind = workloadKind(target.info.mapping);
  if (kind === undefined) return { error: 'restarting is not supported' };
  if (kind === 'Deployment' && ((target.object['spec'] ?? {}) as Obj)['paused'] === true)
    return { error: "can't restart paused deployment (run rollout resume first)" };
  return {
    patch: {
      spec: {
        template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': rfc3339(now) } } },
      },
    },
    operation: 'restarted',
  };
}

function pause(paused: boolean) {
  return (target: Resolved): Change => {
    if (workloadKind(target.info.mapping) !== 'Deployment')
      return { error: paused ? 'pausing is not supported' : 'resuming is not supported' };
    const now = ((target.object['spec'] ?? {}) as Obj)['paused'] === true;
    if (now === paused) return { error: paused ? 'is already paused' : 'is not paused' };
    return { patch: { spec: { paused: paused ? true : null } }, operation: paused ? 'paused' : 'resumed' };
  };
}

async function patchEach(ctx: CommandContext, change: (target: Resolved) => Change): Promise<number> {
  const errors: unknown[] = [];
  const { objects, namespace } = await rolloutTargets(ctx, errors);
  if (objects.length === 0 && errors.length === 0) {
    ctx.err(`No resources found in ${namespace} namespace.\n`);
    return 0;
  }
  const client = await ctx.f.client();
  for (const target of objects) {
    const c = change(target);
    if ('error' in c) {
      const m = target.info.mapping;
      const resource = m.group === '' ? m.resource : `${m.resource}.${m.group}`;
      errors.push(new KubectlError(`error: ${resource} "${target.name}" ${c.error}`));
      continue;
    }
    try {
      const query = { fieldManager: ctx.flags.string('field-manager') };
      const patched = (
        await client.send<KubeObject>('PATCH', withQuery(objectPath(target.info, target.name), query), {
          body: c.patch,
          contentType: 'application/strategic-merge-patch+json',
        })
      ).body;
      const output = ctx.flags.string('output');
      const printer = await makePrinter(output === '' ? 'name' : output, {
        io: ctx.io,
        operation: c.operation,
        template: ctx.flags.string('template'),
      });
      ctx.out(printer.print(patched));
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors);
  return 0;
}

const flags = [
  ...resourceFlags,
  ...printFlags,
  { name: 'field-manager', type: 'string' as const, default: 'kubectl-rollout' },
];

export const rolloutRestartCommand: Command = {
  name: 'restart',
  short: 'Restart a resource',
  flags,
  run: (ctx) => patchEach(ctx, (t) => restart(t, ctx.io.now())),
};

export const rolloutPauseCommand: Command = {
  name: 'pause',
  short: 'Mark the provided resource as paused',
  flags,
  run: (ctx) => patchEach(ctx, pause(true)),
};

export const rolloutResumeCommand: Command = {
  name: 'resume',
  short: 'Resume a paused resource',
  flags,
  run: (ctx) => patchEach(ctx, pause(false)),
};
