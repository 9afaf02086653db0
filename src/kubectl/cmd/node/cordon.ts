/**
 * `kubectl cordon|uncordon NODE…` (or `-l`): marks nodes (un)schedulable
 * with a strategic merge patch of `spec.unschedulable`, printing
 * "cordoned", "uncordoned" or "already cordoned"/"already uncordoned" for
 * each, with the dry-run suffixes. `drain` cordons the same way first.
 */

import type { KubeList, KubeObject } from '../../../api/meta';
import { withQuery } from '../../../client';
import type { Command, CommandContext } from '../../command';
import { AggregateError, KubectlError } from '../../errors';
import { makePrinter } from '../../printers/output';
import { dryRunFlag, dryRunStrategy, dryRunSuffix, type DryRun } from '../mutation';

export const nodeSelectionFlags = [dryRunFlag, { name: 'selector', shorthand: 'l', type: 'string' as const }];

/** The nodes named or selected; a missing one is an error of its own. */
export async function selectedNodes(
  ctx: CommandContext,
  usage: string,
  errors: unknown[],
): Promise<KubeObject[]> {
  const selector = ctx.flags.string('selector');
  if (ctx.args.length === 0 && selector === '')
    throw new KubectlError(`error: USAGE: ${usage} [flags]\nSee '${ctx.path} -h' for help and examples`);
  const client = await ctx.f.client();
  if (ctx.args.length === 0) {
    const list = (await client.send<KubeList>('GET', withQuery('/api/v1/nodes', { labelSelector: selector })))
      .body;
    return list.items.map((i) => ({ apiVersion: 'v1', kind: 'Node', ...i }));
  }
  const nodes: KubeObject[] = [];
  for (const name of ctx.args) {
    try {
      nodes.push((await client.send<KubeObject>('GET', `/api/v1/nodes/${encodeURIComponent(name)}`)).body);
    } catch (error) {
      errors.push(error);
    }
  }
  return nodes;
}

/** Sets `spec.unschedulable` on one node and prints what happened. */
export async function setUnschedulable(
  ctx: CommandContext,
  node: KubeObject,
  desired: boolean,
  dryRun: DryRun,
): Promise<void> {
  const verb = desired ? 'cordoned' : 'uncordoned';
  const current = ((node['spec'] ?? {}) as { unschedulable?: boolean }).unschedulable === true;
  const printer = async (operation: string) =>
    makePrinter('name', { io: ctx.io, operation, dryRunSuffix: dryRunSuffix(dryRun) });
  if (current === desired) {
    ctx.out((await printer(`already ${verb}`)).print(node));
    return;
  }
  if (dryRun !== 'client') {
    const client = await ctx.f.client();
    const query = dryRun === 'server' ? { dryRun: 'All' } : {};
    await client.send(
      'PATCH',
      withQuery(`/api/v1/nodes/${encodeURIComponent(node.metadata?.name ?? '')}`, query),
      {
        body: { spec: { unschedulable: desired ? true : null } },
        contentType: 'application/strategic-merge-patch+json',
      },
    );
  }
  ctx.out((await printer(verb)).print(node));
}

function cordonCommand(name: 'cordon' | 'uncordon', short: string, desired: boolean): Command {
  return {
    name,
    short,
    flags: nodeSelectionFlags,
    async run(ctx) {
      const dryRun = dryRunStrategy(ctx);
      const errors: unknown[] = [];
      const nodes = await selectedNodes(ctx, `${name} NODE`, errors);
      for (const node of nodes) {
        try {
          await setUnschedulable(ctx, node, desired, dryRun);
        } catch (error) {
          errors.push(error);
        }
      }
      if (errors.length > 0) throw new AggregateError(errors);
      return 0;
    },
  };
}

export const cordonNodeCommand = cordonCommand('cordon', 'Mark node as unschedulable', true);
export const uncordonNodeCommand = cordonCommand('uncordon', 'Mark node as schedulable', false);
