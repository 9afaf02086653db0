/**
 * Field ownership's machinery (the field manager, its typed comparison and
 * merge, apply), loaded with the first write that records a field manager
 * or the first apply, never on the path to a first visit's first answer: a
 * first visit only reads (0119). Reached through `fieldManagement`
 * (library.ts).
 */

export { objectTypeFor } from './object-type';
export { apply, updateManagedFieldsWork, ignoreManagedFieldsTimestampsWork } from './field-manager';
export { applyFailure } from './apply-failure';
