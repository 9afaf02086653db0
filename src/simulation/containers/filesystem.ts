/**
 * A container's files, in memory: the few an image ships (`/etc/hostname`,
 * `/etc/hosts`, `/etc/os-release`, the usual directories), the volumes the
 * node agent mounts (ConfigMap, Secret, downward API and projected files,
 * read-only; emptyDir, writable) and whatever the container's shell writes
 * (`touch`, `echo x > f`, `rm`, `mkdir`). The shell's commands, exec
 * sessions and exec probes of one container share it, so a probe sees the
 * file the program removed, as the liveness tutorial expects.
 */

export type FileEntry =
  { kind: 'file'; content: string; readOnly: boolean } | { kind: 'dir'; readOnly: boolean };

export class FsError extends Error {
  constructor(
    readonly path: string,
    readonly why: 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EROFS' | 'EEXIST',
  ) {
    super(`${path}: ${FsError.text[why]}`);
  }

  static readonly text = {
    ENOENT: 'No such file or directory',
    EISDIR: 'Is a directory',
    ENOTDIR: 'Not a directory',
    EROFS: 'Read-only file system',
    EEXIST: 'File exists',
  } as const;
}

/** `path` made absolute against `cwd`, with `.`, `..` and repeated slashes resolved. */
export function resolvePath(cwd: string, path: string): string {
  const parts = (path.startsWith('/') ? path : `${cwd}/${path}`).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return `/${out.join('/')}`;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export class MemoryFs {
  private readonly entries = new Map<string, FileEntry>([['/', { kind: 'dir', readOnly: false }]]);

  /** Creates `path` and its missing parents as directories. */
  mkdirs(path: string, readOnly = false): void {
    const abs = resolvePath('/', path);
    if (abs === '/') return;
    this.mkdirs(parentOf(abs));
    const existing = this.entries.get(abs);
    if (existing === undefined) this.entries.set(abs, { kind: 'dir', readOnly });
    else if (existing.kind !== 'dir') throw new FsError(abs, 'ENOTDIR');
  }

  /** Writes a file as the image or a volume provides it (parents created; `readOnly` for mounted volumes). */
  provide(path: string, content: string, readOnly = false): void {
    const abs = resolvePath('/', path);
    this.mkdirs(parentOf(abs), readOnly);
    this.entries.set(abs, { kind: 'file', content, readOnly });
  }

  stat(path: string): FileEntry | undefined {
    return this.entries.get(resolvePath('/', path));
  }

  read(path: string): string {
    const abs = resolvePath('/', path);
    const e = this.entries.get(abs);
    if (e === undefined) throw new FsError(abs, 'ENOENT');
    if (e.kind === 'dir') throw new FsError(abs, 'EISDIR');
    return e.content;
  }

  /** Writes as a program does: the parent must exist, read-only places refuse. */
  write(path: string, content: string, append = false): void {
    const abs = resolvePath('/', path);
    const parent = this.entries.get(parentOf(abs));
    if (parent === undefined) throw new FsError(abs, 'ENOENT');
    if (parent.kind !== 'dir') throw new FsError(abs, 'ENOTDIR');
    const e = this.entries.get(abs);
    if (e?.kind === 'dir') throw new FsError(abs, 'EISDIR');
    if ((e ?? parent).readOnly) throw new FsError(abs, 'EROFS');
    this.entries.set(abs, {
      kind: 'file',
      content: append && e?.kind === 'file' ? e.content + content : content,
      readOnly: false,
    });
  }

  mkdir(path: string, parents: boolean): void {
    const abs = resolvePath('/', path);
    if (this.entries.has(abs)) {
      if (parents && this.entries.get(abs)?.kind === 'dir') return;
      throw new FsError(abs, 'EEXIST');
    }
    const parent = this.entries.get(parentOf(abs));
    if (parent === undefined && !parents) throw new FsError(abs, 'ENOENT');
    if (parent?.readOnly === true) throw new FsError(abs, 'EROFS');
    this.mkdirs(abs);
  }

  remove(path: string, recursive: boolean): void {
    const abs = resolvePath('/', path);
    const e = this.entries.get(abs);
    if (e === undefined) throw new FsError(abs, 'ENOENT');
    if (e.readOnly || this.entries.get(parentOf(abs))?.readOnly === true) throw new FsError(abs, 'EROFS');
    if (e.kind === 'dir') {
      if (!recursive) throw new FsError(abs, 'EISDIR');
      for (const key of [...this.entries.keys()]) if (key.startsWith(`${abs}/`)) this.entries.delete(key);
    }
    this.entries.delete(abs);
  }

  /** The names directly inside directory `path`, sorted (files of hidden names included). */
  list(path: string): string[] {
    const abs = resolvePath('/', path);
    const e = this.entries.get(abs);
    if (e === undefined) throw new FsError(abs, 'ENOENT');
    if (e.kind !== 'dir') return [abs.slice(abs.lastIndexOf('/') + 1)];
    const prefix = abs === '/' ? '/' : `${abs}/`;
    const names: string[] = [];
    for (const key of this.entries.keys())
      if (key !== abs && key.startsWith(prefix) && !key.slice(prefix.length).includes('/'))
        names.push(key.slice(prefix.length));
    return names.sort();
  }
}
