/**
 * The informer moved to the client layer (`client/informer.ts`), where the
 * simulation's node agents and scheduler use it too, as client-go's
 * `tools/cache` serves every component; controllers keep importing it here.
 */

export * from '../client/informer';
