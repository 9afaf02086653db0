/**
 * Namespace: its strategy (the lifecycle finalizer) and the finalize
 * subresource. Its deletion lifecycle (phase Terminating, the namespace
 * controller emptying it) is in `registry/deletion.ts` and
 * `controllers/namespace-controller.ts`; NamespaceLifecycle admission in
 * `admission/plugins/namespace-lifecycle.ts`.
 */

import { restrict } from '../../../rest/restrict';
import type { KindRegistration } from '../../types';
import { finalizeStorage } from './finalize';
import { namespaceHooks } from './strategy';

export const namespace: KindRegistration = {
  hooks: namespaceHooks,
  // The real Namespace storage has no DeleteCollection: a collection DELETE is 405.
  main: (ctx) => restrict(ctx.store, ['get', 'list', 'watch', 'create', 'update', 'delete']),
  subresources: { finalize: finalizeStorage },
};
