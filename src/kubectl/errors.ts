/**
 * How kubectl reports a failed command (cmdutil.CheckErr): a Status from
 * the server as `Error from server (Reason): message`, an Invalid one as
 * `The Kind "name" is invalid: field: message` (one line, or a bulleted
 * list for several causes), a 401 as `error: You must be logged in to the
 * server (…)`, several errors one per line, anything else prefixed with
 * `error: `; and the exit code (1 unless a command chose another).
 */

import { ApiError } from '../client';
import type { Status } from '../api/meta';

/** An error whose message is printed exactly as given (already formatted), with its exit code. */
export class KubectlError extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

/** Several errors reported together (kubectl's utilerrors.Aggregate). */
export class AggregateError extends Error {
  constructor(readonly errors: unknown[]) {
    super(errors.map((e) => (e instanceof Error ? e.message : String(e))).join(', '));
  }
}

/** A usage error: the message, then where to find help. */
export function usageError(commandPath: string, message: string): KubectlError {
  return new KubectlError(`error: ${message}\nSee '${commandPath} -h' for help and examples`);
}

/** StandardErrorMessage: the text for one error, or undefined when it has no standard form. */
export function standardErrorMessage(error: unknown): string | undefined {
  if (error instanceof ApiError) {
    const s = error.status;
    if (s.reason === 'Unauthorized') return `error: You must be logged in to the server (${s.message ?? ''})`;
    if (s.reason !== undefined && (s.reason as string) !== '')
      return `Error from server (${s.reason}): ${s.message ?? ''}`;
    return `Error from server: ${s.message ?? ''}`;
  }
  return undefined;
}

function messageForError(error: unknown): string {
  return standardErrorMessage(error) ?? (error instanceof Error ? error.message : String(error));
}

/** The text and exit code CheckErr prints for an error. */
export function formatError(error: unknown): { text: string; code: number } {
  let err = error;
  if (err instanceof AggregateError && err.errors.length === 1) err = err.errors[0];
  if (err instanceof KubectlError) return { text: withNewline(err.message), code: err.code };
  if (err instanceof ApiError && err.reason === 'Invalid') {
    const details = err.status.details;
    if (details === undefined) return { text: withNewline(err.message), code: 1 };
    let s = 'The request is invalid';
    if ((details.kind ?? '') !== '' || (details.name ?? '') !== '')
      s = `The ${details.kind ?? ''} "${details.name ?? ''}" is invalid`;
    const causes = details.causes ?? [];
    if (causes.length === 0) return { text: withNewline(`${s}: ${err.message}`), code: 1 };
    return { text: multilineError(`${s}: `, causes.map(causeText)), code: 1 };
  }
  if (err instanceof AggregateError)
    return { text: withNewline(err.errors.map(messageForError).join('\n')), code: 1 };
  const standard = standardErrorMessage(err);
  if (standard !== undefined) return { text: withNewline(standard), code: 1 };
  let msg = err instanceof Error ? err.message : String(err);
  if (!msg.startsWith('error: ')) msg = `error: ${msg}`;
  return { text: withNewline(msg), code: 1 };
}

function causeText(cause: NonNullable<NonNullable<Status['details']>['causes']>[number]): string {
  return `${cause.field ?? ''}: ${cause.message ?? ''}`;
}

export function multilineError(prefix: string, messages: string[]): string {
  if (messages.length === 1) return `${prefix}${messages[0]}\n`;
  return `${prefix}\n${messages.map((m) => `* ${m}\n`).join('')}`;
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
