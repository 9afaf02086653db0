/**
 * The work queue moved to the client layer (`client/work-queue.ts`), beside
 * the informer, as client-go's `util/workqueue`; controllers keep importing
 * it here.
 */

export * from '../client/work-queue';
