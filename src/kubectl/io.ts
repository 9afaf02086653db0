/**
 * What kubectl needs from its host, and nothing more: output streams,
 * standard input, a file area, the kubeconfig, a transport that reaches a
 * server as a connection says, a clock and a way to be interrupted. The
 * Node front end fills it with the process, the file system and node:https;
 * the Terminal view with xterm.js, its file area, the sandbox identities
 * and the page's fetch. The core never touches a host API itself.
 */

import type { FetchFunction } from '../client';
import type { Connection, KubeConfig } from './config/kubeconfig';

/** One HTTP request kubectl sent, as the Terminal's "requests" fold and `-v=6` show it. */
export interface RequestRecord {
  method: string;
  url: string;
  status: number;
  statusText: string;
  durationMs: number;
  /** The server's Audit-Id, which names the request in the request log and its admission trace. */
  auditId?: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  responseHeaders: Record<string, string>;
}

export interface KubectlFiles {
  /** The text of a file (relative to the working folder), or undefined when there is none. */
  read(path: string): Promise<string | undefined>;
  /** The files directly in a folder (names relative to it), or undefined when it is not a folder. */
  list(path: string): Promise<string[] | undefined>;
  /** Writes a file (for `config` commands' files and `cp`-like output); optional. */
  write?(path: string, text: string): Promise<void>;
}

/** Where the kubeconfig comes from and goes back to. */
export interface KubeconfigSource {
  /** The merged configuration for an explicit `--kubeconfig` (empty string when none was given). */
  load(explicitPath: string): Promise<KubeConfig>;
  /** Writes a changed configuration back (use-context, set-context). */
  save(explicitPath: string, config: KubeConfig): Promise<void>;
  /** The path or name shown in `-v=6`'s "Config loaded from file" line. */
  describe(explicitPath: string): string;
}

export interface KubectlIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** All of standard input (for `-f -`); empty when there is none. */
  stdin(): Promise<string>;
  files: KubectlFiles;
  kubeconfig: KubeconfigSource;
  /** A fetch that reaches `connection.server` with its TLS settings; credentials are added by kubectl. */
  transport(connection: Connection): FetchFunction;
  env(name: string): string | undefined;
  now(): Date;
  /** Aborts long-running commands (a watch, `wait`, `logs -f`): Ctrl-C. */
  signal?: AbortSignal;
  /** Called after every request kubectl sends. */
  onRequest?(record: RequestRecord): void;
  /** Opens an editor on text and resolves with the edited text, or undefined when cancelled (`edit`). */
  edit?(text: string, name: string): Promise<string | undefined>;
  /** Opens the sandbox's Editor on an object's API path (`kubectl edit` in the browser). */
  openEditor?(path: string): void;
  /** The process id shown in `-v` lines. */
  pid?: number;
}
