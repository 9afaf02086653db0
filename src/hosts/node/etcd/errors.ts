/**
 * etcd's errors in the storage interface's terms. etcd answers reads at a
 * compacted or future revision with gRPC OutOfRange and a fixed message;
 * anything else etcd or the connection says is `Internal` (nothing was
 * written, or the write's outcome is unknown).
 */

import { StorageError } from '../../../storage/types';

export function isCompactedError(error: unknown): boolean {
  return error instanceof Error && error.message.includes('required revision has been compacted');
}

export function isFutureError(error: unknown): boolean {
  return error instanceof Error && error.message.includes('required revision is a future revision');
}

export function storageErrorOf(error: unknown, revision?: number): StorageError {
  if (error instanceof StorageError) return error;
  if (isCompactedError(error))
    return new StorageError('Compacted', `revision ${revision ?? '?'} has been compacted`);
  if (isFutureError(error))
    return new StorageError(
      'FutureRevision',
      `revision ${revision ?? '?'} is newer than the current revision`,
    );
  const message = error instanceof Error ? error.message : String(error);
  return new StorageError('Internal', `etcd: ${message}`);
}
