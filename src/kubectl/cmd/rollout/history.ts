/**
 * `kubectl rollout history TYPE/NAME [--revision=N]`: the table of a
 * workload's revisions and their change causes, or one revision's pod
 * template as the describers print it; with `-o`, the ReplicaSets or
 * ControllerRevisions themselves.
 */

import type { Command } from '../../command';
import { AggregateError, KubectlError } from '../../errors';
import { describePodTemplate } from '../../describe/pod';
import { PrefixWriter } from '../../describe/writer';
import { makePrinter, nameOf, printFlags, withoutManagedFields } from '../../printers/output';
import { tabwrite } from '../../printers/tabwriter';
import { checkOutput } from '../mutation';
import { resourceFlags, revisionsOf, rolloutTargets } from './targets';
import { groupKindString, groupKindStruct, workloadKind, type Revision } from './workload';

/** The revision table, as kubectl's tab writer (padding 2) aligns it. */
export function historyTable(revisions: Revision[]): string {
  if (revisions.length === 0) return 'No rollout history found.';
  let text = 'REVISION\tCHANGE-CAUSE\n';
  for (const r of revisions) text += `${r.revision}\t${r.changeCause === '' ? '<none>' : r.changeCause}\n`;
  return tabwrite(text, { minWidth: 0, padding: 2 });
}

/** One revision's pod template (printTemplate: DescribePodTemplate). */
export function templateText(template: Record<string, unknown>): string {
  const w = new PrefixWriter();
  describePodTemplate(template, w);
  return w.raw();
}

export const rolloutHistoryCommand: Command = {
  name: 'history',
  short: 'View rollout history',
  flags: [...resourceFlags, ...printFlags, { name: 'revision', type: 'int64', default: '0' }],
  async run(ctx) {
    const revision = ctx.flags.int('revision');
    if (ctx.args.length === 0 && ctx.flags.strings('filename').length === 0)
      throw new KubectlError('error: required resource not specified');
    if (revision < 0) throw new KubectlError(`error: revision must be a positive integer: ${revision}`);
    await checkOutput(ctx);
    const output = ctx.flags.string('output');
    const errors: unknown[] = [];
    const { objects } = await rolloutTargets(ctx, errors);
    for (const { info, object } of objects) {
      const kind = workloadKind(info.mapping);
      if (kind === undefined)
        throw new KubectlError(
          `error: error retrieving history for "${groupKindString(info.mapping)}", no visitor method exists for ${groupKindStruct(info.mapping)}`,
        );
      const revisions = await revisionsOf(ctx, kind, object);
      if (output !== '') {
        const printer = await makePrinter(output, {
          io: ctx.io,
          template: ctx.flags.string('template'),
        });
        const chosen = revision > 0 ? revisions.filter((r) => r.revision === revision) : revisions;
        if (revision > 0 && chosen.length === 0)
          throw new KubectlError('error: unable to find the specified revision');
        for (const r of chosen) ctx.out(printer.print(withoutManagedFields(r.source)));
        continue;
      }
      if (revision > 0) {
        const found = revisions.find((r) => r.revision === revision);
        if (found === undefined) throw new KubectlError('error: unable to find the specified revision');
        ctx.out(`${nameOf(object)} with revision #${revision}\n${templateText(found.template)}\n`);
        continue;
      }
      ctx.out(`${nameOf(object)} \n${historyTable(revisions)}\n`);
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
