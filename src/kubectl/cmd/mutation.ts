/**
 * What the commands that write share (cmdutil): the `--dry-run` strategy
 * (client prints what would be sent, server sends with `dryRun=All`), the
 * `--validate` setting sent as `fieldValidation`, the field manager, and
 * the "kind/name created" line or the `-o` form of the result.
 */

import type { KubeObject } from '../../api/meta';
import type { CommandContext } from '../command';
import { KubectlError } from '../errors';
import { makePrinter, printFlags, withoutManagedFields } from '../printers/output';

export type DryRun = 'none' | 'client' | 'server';

export const dryRunFlag = {
  name: 'dry-run',
  type: 'string' as const,
  default: 'none',
  noOptDefVal: 'unchanged',
};
export const validateFlag = {
  name: 'validate',
  type: 'string' as const,
  default: 'strict',
  noOptDefVal: 'strict',
};

export function writeFlags(fieldManager: string) {
  return [
    ...printFlags,
    dryRunFlag,
    validateFlag,
    { name: 'field-manager', type: 'string' as const, default: fieldManager },
    { name: 'save-config', type: 'bool' as const, noOptDefVal: 'true' },
  ];
}

export function dryRunStrategy(ctx: CommandContext): DryRun {
  const value = ctx.flags.string('dry-run');
  switch (value) {
    case 'unchanged':
    case 'client':
    case 'true':
      return 'client';
    case 'server':
      return 'server';
    case 'none':
    case 'false':
      return 'none';
  }
  throw new KubectlError(`error: Invalid dry-run value (${value}). Must be "none", "server", or "client".`);
}

/** The `fieldValidation` query value `--validate` asks for. */
export function fieldValidation(ctx: CommandContext): string {
  if (!ctx.flags.has('validate')) return 'Strict';
  const v = ctx.flags.string('validate').toLowerCase();
  if (v === 'strict' || v === 'true') return 'Strict';
  if (v === 'warn') return 'Warn';
  if (v === 'ignore' || v === 'false') return 'Ignore';
  throw new KubectlError(
    `error: invalid - validate option "${ctx.flags.string('validate')}"; must be one of: strict (or true), warn, ignore (or false)`,
  );
}

export function dryRunSuffix(dryRun: DryRun): string {
  return dryRun === 'client' ? ' (dry run)' : dryRun === 'server' ? ' (server dry run)' : '';
}

/** Prints a written object: `-o` if given, else `kind/name <operation>`. */
export async function printResult(
  ctx: CommandContext,
  object: KubeObject,
  operation: string,
  dryRun: DryRun,
  typed = false,
): Promise<void> {
  const output = ctx.flags.has('output') ? ctx.flags.string('output') : '';
  if (output === '') {
    const printer = await makePrinter('name', { io: ctx.io, operation, dryRunSuffix: dryRunSuffix(dryRun) });
    ctx.out(printer.print(object));
    return;
  }
  const printer = await makePrinter(output, {
    io: ctx.io,
    template: ctx.flags.has('template') ? ctx.flags.string('template') : '',
  });
  const shown =
    ctx.flags.has('show-managed-fields') && ctx.flags.bool('show-managed-fields')
      ? object
      : withoutManagedFields(object);
  ctx.out(printer.print(shown, typed));
}

/** Checks `-o` before any request, so a bad format fails first as kubectl's does. */
export async function checkOutput(ctx: CommandContext): Promise<void> {
  const output = ctx.flags.has('output') ? ctx.flags.string('output') : '';
  if (output !== '' && output !== 'wide')
    await makePrinter(output, {
      io: ctx.io,
      template: ctx.flags.has('template') ? ctx.flags.string('template') : '',
    });
}

/** The query of a write: field manager, validation and dry run. */
export function writeQuery(ctx: CommandContext, dryRun: DryRun, manager?: string): Record<string, string> {
  const q: Record<string, string> = {};
  if (dryRun === 'server') q['dryRun'] = 'All';
  q['fieldManager'] =
    manager ?? (ctx.flags.has('field-manager') ? ctx.flags.string('field-manager') : 'kubectl');
  if (ctx.flags.has('validate')) q['fieldValidation'] = fieldValidation(ctx);
  return q;
}
