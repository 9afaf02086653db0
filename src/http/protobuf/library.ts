/**
 * The protobuf library, loaded when a request first names the protobuf
 * media type (the request pipeline awaits it; see server/pipeline.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';

export const protobufLibrary = new LazyModule('protobufjs', () => import('./protobufjs.lazy'));

/** Whether a request's headers may need the protobuf codec: it is loaded before the request is handled. */
export function mentionsProtobuf(headers: Headers): boolean {
  // Media types compare case-insensitively (negotiation lowercases them), so the check must too.
  return (
    (headers.get('accept') ?? '').toLowerCase().includes('protobuf') ||
    (headers.get('content-type') ?? '').toLowerCase().includes('protobuf')
  );
}
