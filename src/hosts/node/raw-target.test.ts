/**
 * The `clientError` listener for a socket whose request is complete and
 * being answered (a watch, a long response): Node may report such a socket
 * again at each deadline check, and the answer must be left to finish with
 * one close scheduled after it, not a pair of listeners added per report
 * (under 1,000 watchers that grew past Node's leak warning).
 */

import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { expect, it } from 'vitest';
import { answerClientError } from './raw-target';

it('a complete request being answered gets one close after its answer, however often it is reported', () => {
  const answer = new EventEmitter() as EventEmitter & { req: { complete: boolean } };
  answer.req = { complete: true };
  let closes = 0;
  const socket = Object.assign(new EventEmitter(), {
    _httpMessage: answer,
    writable: true,
    destroySoon: () => {
      closes++;
    },
  }) as unknown as Socket;
  const timeout = Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
  for (let i = 0; i < 20; i++) answerClientError(timeout, socket);
  expect([answer.listenerCount('finish'), answer.listenerCount('close')]).toEqual([1, 1]);
  // Nothing was written in place of the answer, and the socket stays open until it is written.
  expect(closes).toBe(0);
  answer.emit('finish');
  expect(closes).toBe(1);
});
