/**
 * The flag machinery every option group shares, as spf13/pflag is shared by
 * the real server's option groups: the pflag pass that splits the command
 * line into typed values (with pflag's own error texts), the errors main
 * prints (`FlagError`, `HelpRequested`, `CommandFailed`), Go's
 * `strconv.ParseBool`, and reading a file a flag names with Go's
 * `open <path>: <reason>` wording.
 */

import { readFileSync } from 'node:fs';
import { kindOf, type FlagKind, type FlagSpec } from '../flag-help';

/** A bad command line: the message is the real server's, printed after `Error: `. */
export class FlagError extends Error {}

/** `--help` or `-h` was given (and every other flag parsed): main prints the help and exits 0. */
export class HelpRequested extends Error {}

/**
 * A failure after the flags parsed, when the real server has its logging up:
 * main prints it as klog's `"command failed" err="..."` line, exit code 1.
 */
export class CommandFailed extends Error {}

/** A flag's declaration: its pflag parsing kind, and what `--help` prints for it. */
export type FlagDecl = FlagKind | FlagSpec;

/** The flags' values by pflag kind, for the flags named `N`. */
export interface RawFlags<N extends string = string> {
  strings: Partial<Record<N, string>>;
  bools: Partial<Record<N, boolean>>;
  lists: Partial<Record<N, string[]>>;
  maps: Partial<Record<N, Record<string, string>>>;
}

export function invalid(name: string, value: string, why: string): FlagError {
  return new FlagError(`invalid argument "${value}" for "--${name}" flag: ${why}`);
}

/** Go's strconv.ParseBool. */
export function parseBool(name: string, value: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw invalid(name, value, `strconv.ParseBool: parsing "${value}": invalid syntax`);
}

/** The pflag pass: splits the words into typed values, with pflag's own error texts. */
export function scan<N extends string>(
  argv: string[],
  flagKinds: Readonly<Record<N, FlagDecl>>,
): RawFlags<N> {
  const raw: RawFlags<N> = { strings: {}, bools: {}, lists: {}, maps: {} };
  const positional: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      positional.push(word);
      continue;
    }
    const body = word.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    // cobra's help flag: noted, and acted on once every word parsed (an unknown flag still fails first).
    if (name === 'help' || (name === 'h' && !word.startsWith('--'))) {
      help = eq < 0 || parseBool('help', body.slice(eq + 1));
      continue;
    }
    if (!Object.hasOwn(flagKinds, name))
      throw new FlagError(
        word.startsWith('--')
          ? `unknown flag: --${name}`
          : `unknown shorthand flag: '${name[0] ?? ''}' in ${word}`,
      );
    const flag = name as N;
    const kind: FlagKind = kindOf(flagKinds[flag]);
    let value: string;
    if (eq >= 0) value = body.slice(eq + 1);
    else if (kind === 'bool') value = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new FlagError(`flag needs an argument: --${name}`);
      value = next;
      i++;
    }
    switch (kind) {
      case 'bool':
        raw.bools[flag] = parseBool(name, value);
        break;
      case 'string':
        raw.strings[flag] = value;
        break;
      case 'stringArray':
      case 'mapStringBool':
        (raw.lists[flag] ??= []).push(value);
        break;
      case 'stringSlice':
        // An empty value is an empty list (pflag reads `--x=` as no entries).
        (raw.lists[flag] ??= []).push(...(value === '' ? [] : value.split(',')));
        break;
      case 'mapNoSplit': {
        const at = value.indexOf('=');
        if (at < 0) throw invalid(name, value, 'malformed pair, expect string=string');
        const map: Record<string, string> = (raw.maps[flag] ??= {});
        map[value.slice(0, at).trim()] = value.slice(at + 1).trim();
        break;
      }
    }
  }
  if (help) throw new HelpRequested();
  // The real command refuses arguments that are not flags.
  if (positional.some((a) => a !== ''))
    throw new FlagError(
      `"kube-apiserver" does not take any arguments, got [${positional.map((a) => JSON.stringify(a)).join(' ')}]`,
    );
  return raw;
}

/** Go's error text for a file that cannot be opened (`open /x: no such file or directory`). */
function goFileError(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory'
          : error instanceof Error
            ? error.message
            : String(error);
  return `${code === 'EISDIR' ? 'read' : 'open'} ${path}: ${why}`;
}

export type ReadFile = (path: string) => string;

export const readUtf8: ReadFile = (path) => readFileSync(path, 'utf8');

/** Reads a file, failing with Go's `open <path>: <reason>` text. */
export function goRead(read: ReadFile, path: string): string {
  try {
    return read(path);
  } catch (e) {
    throw new Error(goFileError(path, e));
  }
}

export function readFlagFile(read: ReadFile, path: string, context: string): string {
  try {
    return read(path);
  } catch (e) {
    throw new FlagError(`${context}${goFileError(path, e)}`);
  }
}
