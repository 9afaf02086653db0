/**
 * The protobuf library, loaded when a request first names the protobuf
 * media type (the request pipeline awaits it; see server/pipeline.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';

export const protobufLibrary = new LazyModule('protobufjs', () => import('./protobufjs.lazy'));

/**
 * Whether a request's `Accept` and `Content-Type` may need the protobuf codec: it is loaded before the
 * request is handled.
 */
export function mentionsProtobuf(accept: string | null, contentType: string | null): boolean {
  // Media types compare case-insensitively (negotiation lowercases them), so the check must too.
  return (
    (accept ?? '').toLowerCase().includes('protobuf') ||
    (contentType ?? '').toLowerCase().includes('protobuf')
  );
}
