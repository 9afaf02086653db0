/**
 * The streams a simulated process reads and writes, and what it runs on:
 * its container's files, host name and clock. Outputs take text as the
 * program writes it (the container runtime cuts it into log lines); inputs
 * give lines or the whole rest (a pipe's buffered text, an exec session's
 * typed stdin, a file redirected with `<`).
 */

import type { MemoryFs } from '../filesystem';

export interface Output {
  write(text: string): void;
}

export interface Input {
  /** The next line without its newline, or undefined once the input has ended. */
  readLine(): Promise<string | undefined>;
  /** Everything until the end of the input. */
  readAll(): Promise<string>;
}

export const discard: Output = { write: () => undefined };

/** An output that keeps what is written (a command substitution, a pipe's buffer). */
export class Collector implements Output {
  text = '';
  write(text: string): void {
    this.text += text;
  }
}

/** An input over a text known in advance. */
export function textInput(text: string): Input {
  let rest = text;
  return {
    async readLine() {
      if (rest === '') return undefined;
      const i = rest.indexOf('\n');
      const line = i < 0 ? rest : rest.slice(0, i);
      rest = i < 0 ? '' : rest.slice(i + 1);
      return line;
    },
    async readAll() {
      const all = rest;
      rest = '';
      return all;
    },
  };
}

export const noInput: Input = textInput('');

/** Why a process stopped without exiting by itself: a signal it did not handle. */
export class Killed extends Error {
  constructor(readonly signal: 'TERM' | 'KILL' | 'INT') {
    super(`killed by SIG${signal}`);
  }

  /** The exit status a shell reports for a process killed by this signal (128 + its number). */
  get exitCode(): number {
    return 128 + (this.signal === 'KILL' ? 9 : this.signal === 'TERM' ? 15 : 2);
  }
}

/**
 * What a process runs on. `now` and `sleep` follow the process's clock —
 * the server's, or while a container's past is replayed, a virtual one
 * that jumps over sleeps already over. `sleep` rejects with `Killed` when
 * the process is killed meanwhile. `tick` is called once per command run,
 * so that a loop without sleeps costs simulated CPU time instead of
 * holding the event loop.
 */
export interface ProcessHost {
  readonly fs: MemoryFs;
  readonly hostname: string;
  /** `/etc/os-release`'s pretty name and the shell's prompt style come from the image. */
  readonly image: { name: string; prettyName: string; prompt: string };
  /** The process id as the process sees it (1 for a container's main process). */
  readonly pid: number;
  now(): number;
  sleep(ms: number): Promise<void>;
  tick(): Promise<void>;
  /** Throws `Killed` when the process was killed (checked between commands). */
  checkKilled(): void;
  /** A seeded generator of `$RANDOM`, so that a replayed container prints what it printed. */
  random(): number;
  /** The container's own web server (its port, and a page it serves, logged as an access), for `curl localhost`. */
  readonly web?: { port: number; serve(path: string, userAgent: string): { status: number; body: string } };
  /** A server program calls this once it serves: the image's port accepts connections (probes, `curl`) until it exits. */
  listen?(): void;
  /** The container's processes, for `ps`. */
  processes?(): { pid: number; command: string }[];
  /**
   * Resolves when the process is asked to stop (the container's stop signal, or `kill`): a program that
   * waits on it handles the signal (a web server shutting down); one that never asks ignores it, as PID 1 does.
   */
  stopRequested(): Promise<void>;
  /** Sends a signal to a process of the container (`kill 1`); false when there is no such process. */
  kill?(pid: number, signal: 'TERM' | 'KILL' | 'INT'): boolean;
}
