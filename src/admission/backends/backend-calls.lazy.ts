/**
 * The sandbox's webhook backends at work: answering a call (review bodies,
 * rules with CEL, JavaScript through the host's runner) and validating a
 * backend written through the sandbox API. Loaded with the first call to a
 * backend or the first write of one, never on the path to the worker's
 * first response (decision 0070, round 3); the store and the address
 * resolution stay there.
 */

export { answer } from './answer';
export { validateBackend } from './validate';
export { loadCelFor } from './cel';
