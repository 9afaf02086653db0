/**
 * fast-json-patch, loaded when first needed: by a JSON patch request
 * (`http/handlers/patch.ts`) and by the admission chain when a mutating
 * plugin changed an object (the trace shows the change as a patch). Never
 * on the path to the worker's first response (decision 0070, round 3).
 */

import fastJsonPatch from 'fast-json-patch';

export const { applyPatch, compare } = fastJsonPatch;
