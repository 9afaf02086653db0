/**
 * Field ownership and server-side apply: who owns which field of an object
 * (`metadata.managedFields`), updated on every write, and apply — merging a
 * manager's partial configuration into the live object with conflicts that
 * name the field and its owner — behaving as the real server does.
 */

export type { ObjectType, ResourceShape } from './object-type';
export { objectTypeFor } from './object-type';
export {
  apply,
  updateManagedFields,
  updateManagedFieldsWork,
  ignoreManagedFieldsTimestamps,
  ignoreManagedFieldsTimestampsWork,
  FieldManagerError,
  type ApplyArgs,
} from './field-manager';
export { ApplyConflictError, applyConflictStatus, conflictMessage, type FieldConflict } from './conflict';
export {
  managerFromUserAgent,
  managerOrUserAgent,
  validateFieldManager,
  fieldManagerMaxLength,
} from './manager-name';
export { FieldSet } from './field-set';
export { fieldsV1ToSet, setToFieldsV1 } from './fields-v1';
export { pathString, serializePE, type Path, type PathElement } from './path';
