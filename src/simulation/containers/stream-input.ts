/**
 * A process's standard input from an exec stream: the client's bytes as
 * text, read by line or whole. On a terminal (`kubectl exec -it`) the
 * bytes are keystrokes, so a line discipline turns them into lines as a
 * tty does: it echoes what is typed, erases on Backspace, ends a line on
 * Enter, drops it on Ctrl-C and ends the input on Ctrl-D at a line's start.
 */

import type { Input, Output } from './shell/io';

class Lines implements Input {
  private buffer = '';
  private ended = false;
  private waiting: (() => void) | undefined;

  push(text: string): void {
    this.buffer += text;
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    await new Promise<void>((resolve) => (this.waiting = resolve));
    return true;
  }

  async readLine(): Promise<string | undefined> {
    for (;;) {
      const i = this.buffer.indexOf('\n');
      if (i >= 0) {
        const line = this.buffer.slice(0, i);
        this.buffer = this.buffer.slice(i + 1);
        return line;
      }
      if (!(await this.more())) {
        if (this.buffer === '') return undefined;
        const rest = this.buffer;
        this.buffer = '';
        return rest;
      }
    }
  }

  async readAll(): Promise<string> {
    while (await this.more());
    const all = this.buffer;
    this.buffer = '';
    return all;
  }
}

/** Plain stdin (`kubectl exec -i`): the bytes as they come. */
export function streamInput(source: AsyncIterable<Uint8Array>): Input {
  const lines = new Lines();
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for await (const chunk of source) lines.push(decoder.decode(chunk, { stream: true }));
    } finally {
      lines.end();
    }
  })();
  return lines;
}

/** A terminal's keystrokes, with the tty's echo written to `echo`. */
export function terminalInput(source: AsyncIterable<Uint8Array>, echo: Output): Input {
  const lines = new Lines();
  const decoder = new TextDecoder();
  let line = '';
  void (async () => {
    try {
      for await (const chunk of source) {
        for (const ch of decoder.decode(chunk, { stream: true })) {
          if (ch === '\r' || ch === '\n') {
            echo.write('\r\n');
            lines.push(`${line}\n`);
            line = '';
          } else if (ch === '\x7f' || ch === '\b') {
            if (line.length > 0) {
              line = line.slice(0, -1);
              echo.write('\b \b');
            }
          } else if (ch === '\x03') {
            echo.write('^C\r\n');
            line = '';
            lines.push('\n');
          } else if (ch === '\x04') {
            if (line === '') {
              lines.end();
              return;
            }
          } else if (ch === '\x15') {
            echo.write('\b \b'.repeat(line.length));
            line = '';
          } else if (ch >= ' ' || ch === '\t') {
            line += ch;
            echo.write(ch);
          }
        }
      }
    } finally {
      lines.end();
    }
  })();
  return lines;
}
