/**
 * A CDP session to one target (the app's service worker) over Playwright's
 * browser session. Playwright's CDPSession speaks to the browser; a worker is
 * reached non-flat, through `Target.sendMessageToTarget`, which this wraps
 * as request/response. Used by the benches that profile the worker or read
 * its heap.
 */

import type { CDPSession } from 'playwright-core';

export /** A CDP session to one target, over the browser session (non-flat, so Playwright's CDPSession carries it). */
class TargetSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly browserSession: CDPSession,
    readonly sessionId: string,
  ) {
    browserSession.on('Target.receivedMessageFromTarget', (event) => {
      if (event.sessionId !== this.sessionId) return;
      const message = JSON.parse(event.message) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
  }

  async detach(): Promise<void> {
    await this.browserSession.send('Target.detachFromTarget', { sessionId: this.sessionId });
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    const reply = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    });
    void this.browserSession.send('Target.sendMessageToTarget', {
      sessionId: this.sessionId,
      message: JSON.stringify({ id, method, params }),
    });
    return reply;
  }
}

/** Attaches to the app's service worker (the first one the browser lists). */
export async function attachToWorker(cdp: CDPSession): Promise<TargetSession> {
  const { targetInfos } = (await cdp.send('Target.getTargets')) as {
    targetInfos: { targetId: string; type: string }[];
  };
  const sw = targetInfos.find((t) => t.type === 'service_worker');
  if (sw === undefined)
    throw new Error(`no service worker target among ${targetInfos.map((t) => t.type).join(', ')}`);
  const { sessionId } = (await cdp.send('Target.attachToTarget', {
    targetId: sw.targetId,
    flatten: false,
  })) as {
    sessionId: string;
  };
  return new TargetSession(cdp, sessionId);
}
