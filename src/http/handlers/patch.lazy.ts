/**
 * The PATCH handler (patch.ts: JSON, merge and strategic merge patches,
 * server-side apply) with the patch machinery only it uses, loaded with the
 * first PATCH, never on the path to a first visit's first answer (0119).
 * The dispatcher reaches it through `patchHandler` (patch-library.ts).
 */

export { handlePatch } from './patch';
