/**
 * The failures of a strategic merge patch as the real server answers them:
 * a malformed directive is 400 Bad Request, a list of lists or a patch that
 * contradicts its retainKeys list is 422, and every other failure of the
 * merge (a missing merge key, an unknown `$patch` value, ...) reaches the
 * client unconverted, which the real server answers with a 500 without a
 * reason — here a 400 BadRequest with the same text, since bad input is
 * never a 5xx (docs/decisions/0013). Messages are the real ones, with Go's
 * formatting of values.
 */

import { StatusError, badRequest } from '../../machinery/errors';
import { goTypeName, goValue } from '../../machinery/go-format';

export const badPatchFormat = {
  primitiveList: 'invalid patch format of primitive list',
  retainKeys: 'invalid patch format of retainKeys',
  setElementOrder: 'invalid patch format of setElementOrder list',
} as const;

/** 400 for a directive the patch spells wrongly. */
export function badPatch(message: string): StatusError {
  return badRequest(message);
}

/**
 * 422 the way the real server builds it for list-of-lists and retainKeys content errors: a generic
 * server response that is not "unexpected", so the merge's own text is dropped and no cause is sent.
 * The text is kept on the error for the sandbox's own traces and tests.
 */
export function unprocessable(message: string): StatusError & { mergeError: string } {
  return Object.assign(
    new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {}),
    { mergeError: message },
  );
}

export const noListOfLists = (): StatusError => unprocessable('lists of lists are not supported');

/** An error the real server does not convert (it answers 500 with the error's text): a 400 with that text. */
export function unexpected(message: string): StatusError {
  return badRequest(message);
}

export function noMergeKey(item: unknown, mergeKey: string): StatusError {
  return unexpected(`map: ${goValue(item)} does not contain declared merge key: ${mergeKey}`);
}

/** Go's `ErrBadArgType`: the expected type is named by a typed nil (`map[string]interface {}` or `[]interface {}`). */
export function badArgType(expected: 'map' | 'list', actual: unknown): StatusError {
  return unexpected(
    `expected a ${expected === 'map' ? 'map[string]interface {}' : '[]interface {}'}, but received a ${goTypeName(actual)}`,
  );
}

export function badPatchType(directive: unknown, patch: unknown): StatusError {
  return unexpected(`Unknown patch type: ${goValue(directive)} in map: ${goValue(patch)}`);
}
