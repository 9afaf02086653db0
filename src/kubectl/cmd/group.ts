/**
 * A command group as kubectl builds one (DefaultSubCommandRun): typed
 * alone it prints its help on standard error and exits 1; an unknown
 * word after it is "unknown command" with a pointer to `-h`.
 */

import type { Command } from '../command';
import { KubectlError } from '../errors';

export function groupCommand(group: Omit<Command, 'run'>): Command {
  return {
    ...group,
    async run(ctx) {
      if (ctx.args.length > 0)
        throw new KubectlError(
          `error: unknown command "${ctx.args[0]}"\nSee '${ctx.path} -h' for help and examples`,
        );
      const width = Math.max(...(group.subcommands ?? []).map((c) => c.name.length)) + 3;
      const lines = [
        `${group.short ?? ''}.`,
        '',
        'Available Commands:',
        ...(group.subcommands ?? []).map((c) => `  ${c.name.padEnd(width)}${c.short ?? ''}`),
        '',
        'Usage:',
        `  ${ctx.path} SUBCOMMAND [options]`,
        '',
        'Use "kubectl <command> --help" for more information about a given command.',
        'Use "kubectl options" for a list of global command-line options (applies to all commands).',
      ];
      ctx.err(lines.join('\n') + '\n');
      return 1;
    },
  };
}
