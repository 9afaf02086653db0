/**
 * The node agent as the API server reaches it (the kubelet's port 10250 on
 * a cluster): its HTTP endpoints, which serve a container's log
 * (`/containerLogs/<ns>/<pod>/<container>`), and the streams of `exec`,
 * whose channels (stdin, stdout, stderr, the error Status, terminal
 * resizes) the API server carries to the client over SPDY or WebSocket.
 * A host composes the server with the agents of its simulated nodes
 * through a dialer; a node without an agent is reached nowhere. Plain
 * types and Web-standard Request/Response only.
 */

import type { Status } from './meta';

export interface ExecRequest {
  namespace: string;
  pod: string;
  /** The pod's uid the API server saw, so an agent never runs a command in a pod recreated meanwhile. */
  uid?: string;
  container: string;
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

export interface TerminalSize {
  width: number;
  height: number;
}

/** The client's side of an exec stream, as the agent sees it. */
export interface StreamIO {
  /** The bytes the client sends (ends when the client closes stdin); absent without `stdin`. */
  stdin?: AsyncIterable<Uint8Array>;
  stdout(chunk: Uint8Array): void;
  stderr(chunk: Uint8Array): void;
  /** Terminal sizes the client reports (a terminal's window); absent without `tty`. */
  resize?: AsyncIterable<TerminalSize>;
  /** Aborted when the client's connection closes: the command's session is over, and so is the command. */
  closed?: AbortSignal;
}

/** A command started in a container: `run` carries it out and resolves with the error channel's Status. */
export interface StreamSession {
  run(io: StreamIO): Promise<Status>;
}

/** The agent's answer to an exec: a session, or the HTTP error it answers instead (the container does not run). */
export type ExecAnswer = { session: StreamSession } | { refused: { code: number; message: string } };

export interface NodeAgent {
  /** False while the agent does not run (a stopped node): dialing it is refused. */
  readonly reachable: boolean;
  /** The agent's HTTP endpoints, as its server answers them. */
  fetch(request: Request): Promise<Response>;
  exec(request: ExecRequest): Promise<ExecAnswer>;
}

/** The agent at a node's address, or undefined when none listens there. */
export type NodeAgentDialer = (address: {
  node: string;
  hostname: string;
  port: number;
}) => NodeAgent | undefined;
