/**
 * CRD establishing, as the real EstablishingController does it: once a
 * CRD's names are accepted it becomes Established ("InitialNamesAccepted"),
 * which is when the server starts serving it (the registrar watches for
 * exactly that condition).
 */

import { asCrd, isConditionTrue } from '../machinery/crd';
import { crdRef, getCrd, updateStatus, withConditions } from './crd-common';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

export function crdEstablishingController(ctx: ControllerContext): Controller {
  const reconcile = async (name: string): Promise<{ requeueAfterMs?: number } | void> => {
    const crd = await getCrd(ctx, name);
    if (crd === undefined || !isConditionTrue(crd, 'NamesAccepted') || isConditionTrue(crd, 'Established'))
      return;
    const status = withConditions(ctx, crd, [
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ]);
    if ((await updateStatus(ctx, crd, status)) === 'retry') return { requeueAfterMs: 20 };
  };
  const queue = new WorkQueue(reconcile);
  const enqueue = (obj: Parameters<typeof asCrd>[0]): void => {
    const crd = asCrd(obj);
    if (isConditionTrue(crd, 'NamesAccepted') && !isConditionTrue(crd, 'Established'))
      queue.add(crd.metadata?.name ?? '');
  };
  const informer = new Informer(ctx.client, crdRef(ctx), {
    add: enqueue,
    update: (_old, obj) => enqueue(obj),
  });
  return {
    name: 'crd-establishing',
    start: () => informer.start(),
    stop: () => {
      informer.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
