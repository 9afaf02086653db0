/**
 * The pods' eviction handler (eviction.ts: budgets, preconditions, the
 * disruption condition), loaded with the first eviction, never on the path
 * to the worker's first response (eviction-storage.ts).
 */

export { evictionStorage } from './eviction';
