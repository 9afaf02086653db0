/**
 * The Terminal's command history, kept in this browser (localStorage):
 * ↑ walks back from the newest entry, ↓ forward, and a new command resets
 * the walk. Bounded, duplicates of the previous entry skipped.
 */

const storageKey = 'orch-sandbox.terminal.history';
const maxEntries = 500;

export class History {
  private entries: string[];
  private cursor: number;

  constructor(private readonly storage: Storage | undefined = safeStorage()) {
    try {
      this.entries = JSON.parse(storage?.getItem(storageKey) ?? '[]') as string[];
    } catch {
      this.entries = [];
    }
    this.cursor = this.entries.length;
  }

  add(line: string): void {
    if (line.trim() !== '' && this.entries[this.entries.length - 1] !== line) this.entries.push(line);
    if (this.entries.length > maxEntries) this.entries = this.entries.slice(-maxEntries);
    this.cursor = this.entries.length;
    try {
      this.storage?.setItem(storageKey, JSON.stringify(this.entries));
    } catch {
      // Storage disabled: the history lasts for this page.
    }
  }

  /** The entry before the current position, or undefined at the oldest. */
  previous(_current: string): string | undefined {
    if (this.cursor === 0) return this.entries[0];
    this.cursor--;
    return this.entries[this.cursor];
  }

  /** The entry after the current position; empty past the newest. */
  next(): string | undefined {
    if (this.cursor >= this.entries.length) return '';
    this.cursor++;
    return this.entries[this.cursor] ?? '';
  }
}

function safeStorage(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}
