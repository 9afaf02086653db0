/**
 * The signing controller, as the real controller manager's `csrsigning`
 * controllers (one per built-in signer, here one for the four): an
 * approved request for a built-in signer that has neither a certificate
 * nor a Failed condition is checked against its signer's rules; a request
 * that breaks them gets the `Failed` condition (reason
 * `SignerValidationFailure`, the rule's message), any other gets its
 * certificate in `status.certificate` — both through the `status`
 * subresource, as the signer's service account, whose role holds `sign` on
 * the built-in signers. Custom signer names are left alone: another signer
 * owns them. A request that cannot be parsed or signed is logged and
 * tried again later with a growing delay, as the real controller requeues
 * it, and never marked failed.
 */

import type { CertificateSigningRequest } from '../api/certificates';
import { decodeBase64Text, encodeBase64Text } from '../machinery/base64-text';
import { rfc3339Seconds } from '../machinery/ids';
import {
  conditionsOf,
  csrResource,
  hasTrueCondition,
  isApproved,
  isIssued,
  type CsrSigningService,
} from './csr-common';
import { isConflict, isNotFound } from './api-errors';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

export function csrSigningController(ctx: ControllerContext, signing: CsrSigningService): Controller {
  const ref = csrResource(ctx.profile);

  const reconcile = async (name: string): Promise<{ requeueAfterMs?: number } | void> => {
    await informer.synced;
    const csr = informer.cache.get(name) as CertificateSigningRequest | undefined;
    if (csr === undefined || isIssued(csr)) return;
    if (!isApproved(csr) || hasTrueCondition(csr, 'Failed')) return;
    const signerName = csr.spec?.signerName ?? '';
    if (!signing.handles(signerName)) return;

    let outcome: Awaited<ReturnType<CsrSigningService['sign']>>;
    try {
      outcome = await signing.sign({
        request: decodeBase64Text(csr.spec?.request ?? ''),
        usages: csr.spec?.usages ?? [],
        signerName,
        ...(csr.spec?.expirationSeconds !== undefined
          ? { expirationSeconds: csr.spec.expirationSeconds }
          : {}),
        now: ctx.now(),
      });
    } catch (e) {
      // As the real controller's HandleError: said in the log, then retried with the queue's growing per-key delay.
      console.warn(
        `csrsigning: sync ${JSON.stringify(name)} failed with : ${e instanceof Error ? e.message : String(e)}`,
      );
      throw e;
    }
    const status =
      'failure' in outcome
        ? {
            ...csr.status,
            conditions: [
              ...conditionsOf(csr),
              {
                type: 'Failed',
                status: 'True',
                reason: 'SignerValidationFailure',
                message: outcome.failure,
                lastUpdateTime: rfc3339Seconds(ctx.now()),
              },
            ],
          }
        : { ...csr.status, certificate: encodeBase64Text(outcome.certificate) };
    try {
      await ctx.client.update({ ...ref, name, subresource: 'status' }, { ...csr, status });
    } catch (e) {
      // Gone: nothing to sign. A conflict: the newer copy is on its way through the informer.
      if (isNotFound(e)) return;
      if (isConflict(e)) return { requeueAfterMs: 50 };
      throw e;
    }
  };

  const queue = new WorkQueue(reconcile);
  const enqueue = (obj: CertificateSigningRequest): void => queue.add(obj.metadata?.name ?? '');
  const informer: Informer = new Informer(ctx.client, ref, {
    add: enqueue,
    update: (_old, obj) => enqueue(obj),
  });
  return {
    name: 'csrsigning',
    start: () => informer.start(),
    stop: () => {
      informer.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
