/**
 * The command tree and its dispatcher, as cobra runs kubectl's: the
 * command path is found among the arguments with flags stripped (a flag
 * that takes a value skips it), the global and the command's flags parse
 * the rest (interspersed), and errors print as kubectl prints them —
 * unknown commands with cobra's suggestions, flag errors with "See
 * 'kubectl get --help' for usage.", and everything a command throws
 * through CheckErr.
 */

import { FlagError, FlagSet, HelpRequested, type FlagSpec } from './flags/pflag';
import { formatError } from './errors';
import { Factory } from './factory';
import type { KubectlIO } from './io';

export interface CommandContext {
  f: Factory;
  io: KubectlIO;
  flags: FlagSet;
  args: string[];
  /** `kubectl create secret generic`, for usage errors. */
  path: string;
  out(text: string): void;
  err(text: string): void;
}

export interface Command {
  name: string;
  aliases?: string[];
  short?: string;
  flags?: FlagSpec[];
  subcommands?: Command[];
  /** Returns the exit code (0 when nothing is returned). */
  run?(ctx: CommandContext): Promise<number | void>;
}

/** kubectl's global flags (kubectl options). */
export const globalFlags: FlagSpec[] = [
  { name: 'as', type: 'string' },
  { name: 'as-group', type: 'stringArray' },
  { name: 'as-uid', type: 'string' },
  { name: 'cache-dir', type: 'string', default: '~/.kube/cache' },
  { name: 'certificate-authority', type: 'string' },
  { name: 'client-certificate', type: 'string' },
  { name: 'client-key', type: 'string' },
  { name: 'cluster', type: 'string' },
  { name: 'context', type: 'string' },
  { name: 'disable-compression', type: 'bool', noOptDefVal: 'true' },
  { name: 'insecure-skip-tls-verify', type: 'bool', noOptDefVal: 'true' },
  { name: 'kubeconfig', type: 'string' },
  { name: 'match-server-version', type: 'bool', noOptDefVal: 'true' },
  { name: 'namespace', shorthand: 'n', type: 'string' },
  { name: 'password', type: 'string' },
  { name: 'profile', type: 'string', default: 'none' },
  { name: 'profile-output', type: 'string', default: 'profile.pprof' },
  { name: 'request-timeout', type: 'string', default: '0' },
  { name: 'server', shorthand: 's', type: 'string' },
  { name: 'tls-server-name', type: 'string' },
  { name: 'token', type: 'string' },
  { name: 'user', type: 'string' },
  { name: 'username', type: 'string' },
  { name: 'warnings-as-errors', type: 'bool', noOptDefVal: 'true' },
  { name: 'v', shorthand: 'v', type: 'int', default: '0' },
  { name: 'vmodule', type: 'string' },
  { name: 'log-flush-frequency', type: 'duration', default: '5s' },
  { name: 'add-dir-header', type: 'bool', noOptDefVal: 'true' },
  { name: 'alsologtostderr', type: 'bool', noOptDefVal: 'true' },
  { name: 'log-backtrace-at', type: 'string', default: ':0' },
  { name: 'log-dir', type: 'string' },
  { name: 'log-file', type: 'string' },
  { name: 'log-file-max-size', type: 'int', default: '1800' },
  { name: 'logtostderr', type: 'bool', default: 'true', noOptDefVal: 'true' },
  { name: 'one-output', type: 'bool', noOptDefVal: 'true' },
  { name: 'skip-headers', type: 'bool', noOptDefVal: 'true' },
  { name: 'skip-log-headers', type: 'bool', noOptDefVal: 'true' },
  { name: 'stderrthreshold', type: 'int', default: '2' },
];

function findChild(cmd: Command, name: string): Command | undefined {
  return cmd.subcommands?.find((c) => c.name === name || (c.aliases ?? []).includes(name));
}

/** cobra's stripFlags: the non-flag words, skipping the value of a flag that takes one. */
function stripFlags(args: string[], specs: FlagSpec[]): string[] {
  const words: string[] = [];
  const noOpt = (name: string) => specs.find((s) => s.name === name)?.noOptDefVal !== undefined;
  const shortNoOpt = (c: string) => specs.find((s) => s.shorthand === c)?.noOptDefVal !== undefined;
  let rest = [...args];
  while (rest.length > 0) {
    const s = rest.shift() as string;
    if (s === '--') break;
    if (
      (s.startsWith('--') && !s.includes('=') && !noOpt(s.slice(2))) ||
      (s.startsWith('-') &&
        !s.startsWith('--') &&
        !s.includes('=') &&
        s.length === 2 &&
        !shortNoOpt(s.slice(1)))
    ) {
      if (rest.length <= 1) break;
      rest = rest.slice(1);
      continue;
    }
    if (s !== '' && !s.startsWith('-')) words.push(s);
  }
  return words;
}

/** Removes the first occurrence of `name` that is not a flag's value (cobra's argsMinusFirstX). */
function argsMinusFirst(args: string[], name: string, specs: FlagSpec[]): string[] {
  for (let i = 0; i < args.length; i++) {
    const s = args[i] as string;
    if (s === '--') break;
    if (s.startsWith('--') && !s.includes('=') && !specs.find((f) => f.name === s.slice(2))?.noOptDefVal) {
      i++;
      continue;
    }
    if (s.startsWith('-') && !s.startsWith('--') && !s.includes('=') && s.length === 2) {
      if (specs.find((f) => f.shorthand === s.slice(1))?.noOptDefVal === undefined) i++;
      continue;
    }
    if (s === name) return [...args.slice(0, i), ...args.slice(i + 1)];
  }
  return args;
}

/** cobra's suggestions: Levenshtein distance ≤ 2, or a prefix. */
function suggestions(cmd: Command, typed: string): string[] {
  const out: string[] = [];
  for (const c of cmd.subcommands ?? []) {
    if (levenshtein(typed.toLowerCase(), c.name.toLowerCase()) <= 2 || c.name.startsWith(typed.toLowerCase()))
      out.push(c.name);
  }
  return out;
}

function levenshtein(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      (d[i] as number[])[j] = Math.min(
        (d[i - 1] as number[])[j]! + 1,
        (d[i] as number[])[j - 1]! + 1,
        (d[i - 1] as number[])[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
  return (d[a.length] as number[])[b.length] as number;
}

/** Runs one kubectl command line (the words after `kubectl`) and returns its exit code. */
export async function execute(root: Command, argv: string[], io: KubectlIO): Promise<number> {
  // Find the command path.
  let cmd = root;
  const path = [root.name];
  let args = [...argv];
  let specs = [...globalFlags];
  for (;;) {
    const words = stripFlags(args, [...specs, ...(cmd.flags ?? [])]);
    const next = words[0];
    if (next === undefined) break;
    const child = findChild(cmd, next);
    if (child === undefined) break;
    args = argsMinusFirst(args, next, [...specs, ...(cmd.flags ?? [])]);
    cmd = child;
    path.push(child.name);
  }
  const commandPath = path.join(' ');
  if (cmd === root) {
    const words = stripFlags(args, specs);
    if (words.length > 0) {
      const firstWord = args.find((a) => !a.startsWith('-')) ?? '';
      if (args[0]?.startsWith('-') && args[0] !== firstWord) {
        io.stderr(`Error: flags cannot be placed before plugin name: ${args[0]}\n`);
        return 1;
      }
      let text = `error: unknown command "${words[0]}" for "kubectl"`;
      const s = suggestions(root, words[0] as string);
      if (s.length > 0) text += `\n\nDid you mean this?\n${s.map((x) => `\t${x}\n`).join('')}`;
      io.stderr(text.endsWith('\n') ? text : text + '\n');
      return 1;
    }
  }
  specs = [...globalFlags, ...(cmd.flags ?? [])];
  const flags = new FlagSet(specs);
  let positional: string[];
  try {
    positional = flags.parse(args);
  } catch (error) {
    if (error instanceof HelpRequested) {
      io.stdout(helpText(cmd, commandPath));
      return 0;
    }
    if (error instanceof FlagError) {
      io.stderr(`error: ${error.message}\nSee '${commandPath} --help' for usage.\n`);
      return 1;
    }
    throw error;
  }
  if (cmd.run === undefined) {
    io.stdout(helpText(cmd, commandPath));
    return 0;
  }
  const f = new Factory(io, flags);
  const ctx: CommandContext = {
    f,
    io,
    flags,
    args: positional,
    path: commandPath,
    out: (t) => io.stdout(t),
    err: (t) => io.stderr(t),
  };
  try {
    return (await cmd.run(ctx)) ?? 0;
  } catch (error) {
    const { text, code } = formatError(error);
    io.stderr(text);
    return code;
  }
}

function helpText(cmd: Command, path: string): string {
  const lines = [`${cmd.short ?? ''}`.trim(), ''];
  if (cmd.subcommands !== undefined && cmd.subcommands.length > 0) {
    lines.push('Available Commands:');
    const width = Math.max(...cmd.subcommands.map((c) => c.name.length)) + 3;
    for (const c of cmd.subcommands) lines.push(`  ${c.name.padEnd(width)}${c.short ?? ''}`);
    lines.push('');
  }
  const flags = (cmd.flags ?? []).filter((f) => !f.hidden);
  if (flags.length > 0) {
    lines.push('Options:');
    for (const f of flags)
      lines.push(
        `    ${f.shorthand !== undefined ? `-${f.shorthand}, ` : ''}--${f.name}${f.default ? `='${f.default}'` : ''}:`,
      );
    lines.push(`        ${''}`);
  }
  lines.push(
    `Usage:\n  ${path} [options]`,
    '',
    `Use "kubectl options" for a list of global command-line options (applies to all commands).`,
  );
  return lines.filter((l, i) => i > 0 || l !== '').join('\n') + '\n';
}
