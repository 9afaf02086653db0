/**
 * The Terminal's file area: a few small files kept in this browser
 * (localStorage), so `kubectl apply -f name.yaml`, `--from-file` and
 * `cat > name <<EOF` work offline. Flat, with `/` allowed in names so a
 * folder (`-f dir/`) is the files under that prefix.
 */

const storageKey = 'orch-sandbox.terminal.files';

export class FileArea {
  private files: Record<string, string>;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly storage: Storage | undefined = safeLocalStorage()) {
    this.files = read(storage);
  }

  list(): string[] {
    return Object.keys(this.files).sort();
  }

  read(path: string): string | undefined {
    return this.files[normalise(path)];
  }

  /** The names directly under a folder, or undefined when no file lies under it. */
  folder(path: string): string[] | undefined {
    const prefix = normalise(path).replace(/\/?$/, '/');
    if (prefix === '/' || prefix === './')
      return [...new Set(this.list().map((f) => f.split('/')[0] as string))];
    const names = this.list()
      .filter((f) => f.startsWith(prefix))
      .map((f) => f.slice(prefix.length).split('/')[0] as string);
    return names.length === 0 ? undefined : [...new Set(names)];
  }

  write(path: string, text: string): void {
    this.files = { ...this.files, [normalise(path)]: text };
    this.save();
  }

  remove(path: string): boolean {
    const key = normalise(path);
    if (!(key in this.files)) return false;
    const { [key]: _removed, ...rest } = this.files;
    this.files = rest;
    this.save();
    return true;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private save(): void {
    try {
      this.storage?.setItem(storageKey, JSON.stringify(this.files));
    } catch {
      // Storage full or disabled: the files last for this page.
    }
    for (const l of this.listeners) l();
  }
}

function normalise(path: string): string {
  return path.replace(/^\.\//, '').replace(/^\/+/, '');
}

function read(storage: Storage | undefined): Record<string, string> {
  try {
    const text = storage?.getItem(storageKey);
    return text ? (JSON.parse(text) as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}
