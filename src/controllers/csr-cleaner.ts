/**
 * The request cleaner (the real controller manager's `csrcleaner`):
 * deletes requests whose state has stood still long enough — denied or
 * failed an hour after that condition's last update, approved an hour
 * after the approval (the spec's rule; the real cleaner waits for an
 * issued certificate first), pending (no condition at all) 24 hours after
 * creation, and any approved request once its issued certificate has
 * expired. The real one lists every request once an hour; this one works
 * out each request's deadline when the request changes and compares the
 * earliest with the clock every second — the clock being the server's
 * `now`, so a test that moves an injected clock sees the request go at
 * once, without waiting and without a busy loop.
 */

import type { CertificateSigningRequest } from '../api/certificates';
import { decodeBase64Text } from '../machinery/base64-text';
import { conditionsOf, csrResource, isIssued, type CsrSigningService } from './csr-common';
import { isConflict, isNotFound } from './api-errors';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

const hourMs = 3_600_000;
export const approvedExpirationMs = hourMs;
export const deniedExpirationMs = hourMs;
export const pendingExpirationMs = 24 * hourMs;

function time(value: string | null | undefined): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * The instant after which a request is deleted, or undefined when nothing
 * will ever delete it (a condition without timestamps, as the real cleaner
 * treats a zero time). A request is due once the clock is strictly later.
 */
export function cleanupDeadline(
  csr: CertificateSigningRequest,
  certificateNotAfter: (pem: string) => Date | undefined,
): number | undefined {
  const conditions = conditionsOf(csr);
  const deadlines: number[] = [];
  if (conditions.length === 0) {
    const created = time(csr.metadata?.creationTimestamp);
    if (created !== undefined) deadlines.push(created + pendingExpirationMs);
  }
  for (const c of conditions) {
    // Only lastUpdateTime counts, as in the real cleaner: without one the condition never expires.
    const updated = time(c.lastUpdateTime);
    if (updated === undefined) continue;
    if (c.type === 'Denied' || c.type === 'Failed') deadlines.push(updated + deniedExpirationMs);
    if (c.type === 'Approved') deadlines.push(updated + approvedExpirationMs);
  }
  if (isIssued(csr) && conditions.some((c) => c.type === 'Approved')) {
    let notAfter: Date | undefined;
    try {
      notAfter = certificateNotAfter(decodeBase64Text(csr.status?.certificate ?? ''));
    } catch {
      notAfter = undefined;
    }
    if (notAfter !== undefined) deadlines.push(notAfter.getTime());
  }
  return deadlines.length === 0 ? undefined : Math.min(...deadlines);
}

export interface CsrCleanerOptions {
  /** How often the deadlines are compared with the clock; default one second. */
  tickMs?: number;
}

export function csrCleaner(
  ctx: ControllerContext,
  signing: Pick<CsrSigningService, 'certificateNotAfter'>,
  options: CsrCleanerOptions = {},
): Controller {
  const ref = csrResource(ctx.profile);
  const deadlines = new Map<string, { deadline: number; uid: string }>();

  const reconcile = async (name: string): Promise<void> => {
    const entry = deadlines.get(name);
    if (entry === undefined || ctx.now().getTime() <= entry.deadline) return;
    try {
      // The uid precondition keeps a request re-created under the same name from going with the old one.
      await ctx.client.delete(
        { ...ref, name },
        {
          kind: 'DeleteOptions',
          apiVersion: 'v1',
          preconditions: { uid: entry.uid },
        },
      );
    } catch (e) {
      if (isNotFound(e) || isConflict(e)) return;
      throw e;
    }
  };
  const queue = new WorkQueue(reconcile);

  const check = (): void => {
    const now = ctx.now().getTime();
    for (const [name, entry] of deadlines) if (now > entry.deadline) queue.add(name);
  };
  const apply = (csr: CertificateSigningRequest, notAfter: Date | undefined): void => {
    const name = csr.metadata?.name ?? '';
    const deadline = cleanupDeadline(csr, () => notAfter);
    if (deadline === undefined) deadlines.delete(name);
    else deadlines.set(name, { deadline, uid: csr.metadata?.uid ?? '' });
    if (deadline !== undefined && ctx.now().getTime() > deadline) queue.add(name);
  };
  // The certificate's NotAfter is read asynchronously (the service parses X.509); a newer version of the
  // request seen meanwhile wins, so a late answer never overwrites it.
  const latest = new Map<string, CertificateSigningRequest>();
  const track = (csr: CertificateSigningRequest): void => {
    const name = csr.metadata?.name ?? '';
    if (!isIssued(csr) || !conditionsOf(csr).some((c) => c.type === 'Approved')) {
      latest.delete(name);
      return apply(csr, undefined);
    }
    latest.set(name, csr);
    // Unreadable means no deadline from the certificate, as in cleanupDeadline.
    void (async () => {
      try {
        return await signing.certificateNotAfter(decodeBase64Text(csr.status?.certificate ?? ''));
      } catch {
        return undefined;
      }
    })().then((notAfter) => {
      if (latest.get(name) !== csr) return;
      latest.delete(name);
      apply(csr, notAfter);
    });
  };
  const informer = new Informer(ctx.client, ref, {
    add: track,
    update: (_old, obj) => track(obj),
    delete: (obj) => {
      latest.delete(obj.metadata?.name ?? '');
      deadlines.delete(obj.metadata?.name ?? '');
    },
  });
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    name: 'csrcleaner',
    start: () => {
      informer.start();
      timer = setInterval(check, options.tickMs ?? 1000);
    },
    stop: () => {
      if (timer !== undefined) clearInterval(timer);
      informer.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
