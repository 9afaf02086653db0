/**
 * The OpenAPI document builders, loaded when a request under `/openapi/`
 * first needs them (see machinery/lazy-module.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as OpenApiDocuments from './openapi-documents.lazy';

export const openApiDocuments = new LazyModule<typeof OpenApiDocuments>(
  'openapi-documents',
  () => import('./openapi-documents.lazy'),
);
