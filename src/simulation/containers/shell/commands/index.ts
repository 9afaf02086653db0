/**
 * The commands a container finds, by the userland of its image: a shell's
 * builtins and the usual programs (busybox's applets or GNU's coreutils —
 * the same set here, `bash` only in GNU images), plus the programs the
 * image itself ships (its server, `perl`, `curl`). An image without a
 * shell (`pause`, `hello-world`) has only its own programs, so `exec sh`
 * fails there as it does on a cluster.
 */

import type { CommandFn } from '../interpreter';
import { builtins } from './builtins';
import { fileCommands } from './files';
import { imagePrograms } from './programs';
import { systemCommands } from './system';
import { textCommands } from './text';

export type Userland = 'busybox' | 'gnu' | 'none';

export function commandsFor(userland: Userland, programs: readonly string[]): Map<string, CommandFn> {
  const commands = new Map<string, CommandFn>();
  if (userland !== 'none') {
    for (const set of [builtins, textCommands, fileCommands, systemCommands])
      for (const [name, fn] of Object.entries(set)) commands.set(name, fn);
    if (userland === 'busybox') {
      commands.delete('bash');
      commands.delete('dash');
    }
  }
  for (const p of programs) {
    const fn = imagePrograms[p];
    if (fn !== undefined) commands.set(p, fn);
  }
  return commands;
}
