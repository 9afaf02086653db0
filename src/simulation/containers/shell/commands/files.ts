/**
 * File programs over the container's in-memory files: `ls` (one name a
 * line, as when its output is not a terminal; `-l` and `-a`), `touch`,
 * `rm`, `mkdir`, `cp` and `mv`, with busybox's error texts. Mounted
 * ConfigMaps and Secrets are read-only, as a kubelet mounts them.
 */

import type { CommandContext, CommandFn } from '../interpreter';
import { FsError, resolvePath } from '../../filesystem';

function split(args: string[]): { flags: Set<string>; operands: string[] } {
  const flags = new Set<string>();
  const operands: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') && a.length > 1 && operands.length === 0) for (const f of a.slice(1)) flags.add(f);
    else operands.push(a);
  }
  return { flags, operands };
}

function failure(ctx: CommandContext, tool: string, what: string, e: unknown): number {
  if (!(e instanceof FsError)) throw e;
  ctx.stderr.write(`${tool}: ${what}: ${FsError.text[e.why]}\n`);
  return 1;
}

async function ls(ctx: CommandContext): Promise<number> {
  const { flags, operands } = split(ctx.args);
  const fs = ctx.shell.host.fs;
  const targets = operands.length > 0 ? operands : ['.'];
  let status = 0;
  const date = new Date(ctx.shell.host.now());
  const stamp = `${date.toUTCString().slice(8, 11)} ${String(date.getUTCDate()).padStart(2)} ${date.toISOString().slice(11, 16)}`;
  const long = (path: string, name: string) => {
    const e = fs.stat(path);
    const dir = e?.kind === 'dir';
    const mode = dir ? 'drwxr-xr-x' : e?.readOnly === true ? '-r--r--r--' : '-rw-r--r--';
    const size = e?.kind === 'file' ? new TextEncoder().encode(e.content).length : 4096;
    return `${mode}    1 root     root     ${String(size).padStart(8)} ${stamp} ${name}`;
  };
  for (const [i, t] of targets.entries()) {
    const path = resolvePath(ctx.shell.cwd, t);
    const entry = fs.stat(path);
    if (entry === undefined) {
      ctx.stderr.write(`ls: ${t}: No such file or directory\n`);
      status = 1;
      continue;
    }
    if (entry.kind === 'file') {
      ctx.stdout.write(`${flags.has('l') ? long(path, t) : t}\n`);
      continue;
    }
    if (targets.length > 1) ctx.stdout.write(`${i > 0 ? '\n' : ''}${t}:\n`);
    const names = fs.list(path).filter((n) => flags.has('a') || flags.has('A') || !n.startsWith('.'));
    if (flags.has('a')) names.unshift('.', '..');
    if (flags.has('l')) ctx.stdout.write(`total ${names.length * 4}\n`);
    for (const n of names) ctx.stdout.write(`${flags.has('l') ? long(resolvePath(path, n), n) : n}\n`);
  }
  return status;
}

async function touch(ctx: CommandContext): Promise<number> {
  const fs = ctx.shell.host.fs;
  for (const f of split(ctx.args).operands) {
    const path = resolvePath(ctx.shell.cwd, f);
    try {
      if (fs.stat(path) === undefined) fs.write(path, '');
    } catch (e) {
      return failure(ctx, 'touch', f, e);
    }
  }
  return 0;
}

async function rm(ctx: CommandContext): Promise<number> {
  const { flags, operands } = split(ctx.args);
  const fs = ctx.shell.host.fs;
  let status = 0;
  for (const f of operands) {
    const path = resolvePath(ctx.shell.cwd, f);
    if (fs.stat(path) === undefined) {
      if (!flags.has('f')) {
        ctx.stderr.write(`rm: can't remove '${f}': No such file or directory\n`);
        status = 1;
      }
      continue;
    }
    try {
      fs.remove(path, flags.has('r') || flags.has('R'));
    } catch (e) {
      if (!(e instanceof FsError)) throw e;
      ctx.stderr.write(
        e.why === 'EISDIR'
          ? `rm: '${f}' is a directory\n`
          : `rm: can't remove '${f}': ${FsError.text[e.why]}\n`,
      );
      status = 1;
    }
  }
  return status;
}

async function mkdir(ctx: CommandContext): Promise<number> {
  const { flags, operands } = split(ctx.args);
  for (const d of operands) {
    try {
      ctx.shell.host.fs.mkdir(resolvePath(ctx.shell.cwd, d), flags.has('p'));
    } catch (e) {
      if (!(e instanceof FsError)) throw e;
      ctx.stderr.write(`mkdir: can't create directory '${d}': ${FsError.text[e.why]}\n`);
      return 1;
    }
  }
  return 0;
}

function copy(move: boolean): CommandFn {
  const tool = move ? 'mv' : 'cp';
  return async (ctx) => {
    const { operands } = split(ctx.args);
    const fs = ctx.shell.host.fs;
    if (operands.length < 2) {
      ctx.stderr.write(`${tool}: missing destination file operand\n`);
      return 1;
    }
    const dest = operands.pop() as string;
    const destPath = resolvePath(ctx.shell.cwd, dest);
    for (const src of operands) {
      const srcPath = resolvePath(ctx.shell.cwd, src);
      try {
        const content = fs.read(srcPath);
        const target =
          fs.stat(destPath)?.kind === 'dir'
            ? resolvePath(destPath, src.slice(src.lastIndexOf('/') + 1))
            : destPath;
        fs.write(target, content);
        if (move) fs.remove(srcPath, false);
      } catch (e) {
        return failure(ctx, tool, src, e);
      }
    }
    return 0;
  };
}

export const fileCommands: Record<string, CommandFn> = {
  ls,
  touch,
  rm,
  mkdir,
  cp: copy(false),
  mv: copy(true),
};
