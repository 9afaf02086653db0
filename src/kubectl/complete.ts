/**
 * Tab completion for a kubectl command line, as the Terminal offers it:
 * subcommands, the flags of the command being typed, resource types (from
 * discovery, with short names) after a verb that takes them, and object
 * names (from a list) after a type. The caller supplies discovery and
 * name lookups, so this stays free of any host.
 */

import { globalFlags, type Command } from './command';
import { rootCommand } from './cmd/root';

export interface CompletionSources {
  /** Resource names and short names the server serves. */
  types(): Promise<string[]>;
  /** Names of the objects of a type (in the current namespace). */
  names(type: string): Promise<string[]>;
}

const takesTypes = new Set([
  'get',
  'describe',
  'delete',
  'edit',
  'label',
  'annotate',
  'patch',
  'scale',
  'explain',
  'wait',
  'logs',
  // rollout's and set's subcommands, autoscale and taint take TYPE NAME too.
  'status',
  'history',
  'undo',
  'restart',
  'pause',
  'resume',
  'image',
  'autoscale',
  'expose',
  'taint',
]);

/** Commands whose arguments are node names. */
const takesNodes = new Set(['cordon', 'uncordon', 'drain']);

/** The candidates that complete the last word of `words` (the words typed after `kubectl`). */
export async function complete(words: string[], sources: CompletionSources): Promise<string[]> {
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  let cmd: Command = rootCommand;
  const positional: string[] = [];
  for (const w of before) {
    if (w.startsWith('-')) continue;
    const child = cmd.subcommands?.find((c) => c.name === w || (c.aliases ?? []).includes(w));
    if (child !== undefined && positional.length === 0) cmd = child;
    else positional.push(w);
  }
  if (current.startsWith('-')) {
    const flags = [...(cmd.flags ?? []), ...globalFlags].map((f) => `--${f.name}`);
    return [...new Set(flags)].filter((f) => f.startsWith(current)).sort();
  }
  if (positional.length === 0 && (cmd.subcommands ?? []).length > 0)
    return (cmd.subcommands ?? [])
      .map((c) => c.name)
      .filter((n) => n.startsWith(current))
      .sort();
  if (takesNodes.has(cmd.name))
    return (await sources.names('nodes')).filter((n) => n.startsWith(current)).sort();
  if (takesTypes.has(cmd.name)) {
    if (positional.length === 0) {
      if (current.includes('/')) {
        const type = current.slice(0, current.indexOf('/'));
        return (await sources.names(type))
          .map((n) => `${type}/${n}`)
          .filter((n) => n.startsWith(current))
          .sort();
      }
      return (await sources.types()).filter((t) => t.startsWith(current)).sort();
    }
    const type = positional[0] as string;
    if (!type.includes('/')) return (await sources.names(type)).filter((n) => n.startsWith(current)).sort();
  }
  return [];
}

/** The longest common prefix of the candidates. */
export function commonPrefix(candidates: string[]): string {
  if (candidates.length === 0) return '';
  let prefix = candidates[0] as string;
  for (const c of candidates) while (!c.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
