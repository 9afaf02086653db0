/**
 * The webhook backends a learner declares so that admission webhooks can be
 * tried without a webhook server: what a backend is (declarative rules or
 * a JavaScript function), the address it answers (a service reference or
 * its reserved URL), and the `ScriptRunner` a host injects to run
 * JavaScript backends isolated, under the call's timeout.
 */

import type { JsonValue } from '../../api/meta';

/** One JSON-patch operation of a rule; any value node `{"expr": "<CEL>"}` is replaced by the expression's result. */
export interface PatchTemplateOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: JsonValue;
}

export interface BackendRule {
  /** CEL over `request` (the AdmissionReview request), `object` and `oldObject`; absent: always. */
  when?: string;
  allowed: boolean;
  /** The status code of a denial; default 403. */
  code?: number;
  message?: string;
  patch?: PatchTemplateOp[];
  warnings?: string[];
}

export interface BackendService {
  name: string;
  namespace: string;
  /** Absent: any port. */
  port?: number;
  /** Absent: any path. */
  path?: string;
}

export interface WebhookBackend {
  name: string;
  /** With no `service`: the backend answers the service `<namespace>/<name>` on any port and path. */
  namespace?: string;
  service?: BackendService;
  kind: 'rules' | 'javascript';
  rules?: BackendRule[];
  /** `(admissionReview) => response`: the whole AdmissionReview in, the AdmissionReview or its response out. */
  source?: string;
}

/** Where backends are kept (the server's storage settings). */
export interface BackendReader {
  list(): Promise<WebhookBackend[]>;
}

/** A JavaScript backend run: the function's source and the request body it is given (JSON text). */
export interface ScriptJob {
  source: string;
  input: string;
  timeoutMs: number;
}

export type ScriptOutcome =
  /** `raw`: the function returned a string (sent as is); otherwise `text` is its JSON (undefined when it has none). */
  | { kind: 'returned'; text: string | undefined; raw: boolean }
  | { kind: 'threw'; message: string }
  | { kind: 'timeout' }
  /** Nothing can run scripts now (the browser with no sandbox page open). */
  | { kind: 'unavailable'; message: string };

/** Runs a backend's function out of the server's reach, killing it at the timeout. */
export interface ScriptRunner {
  run(job: ScriptJob): Promise<ScriptOutcome>;
}

/** The answer when the host gave no runner. */
export const noScriptRunner: ScriptRunner = {
  run: () =>
    Promise.resolve({ kind: 'unavailable', message: 'this host runs no JavaScript webhook backends' }),
};

/** The host name suffix of backend URLs: `.invalid` never resolves, so no real address is shadowed. */
export const RESERVED_DOMAIN = 'webhooks.sandbox.invalid';
