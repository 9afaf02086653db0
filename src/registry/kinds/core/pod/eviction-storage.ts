/**
 * `pods/<name>/eviction` as the pods' storage serves it: its kind at once
 * (discovery and the request's decoding need it), its handler loaded with
 * the first eviction (eviction.lazy.ts). Eviction is rare next to a first
 * visit's requests, and its ~18 KB of source was worker script that every
 * first visit fetched and compiled without running.
 */

import { LazyModule } from '../../../../machinery/lazy-module';
import type { KindOverride, NamedCreater } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import type * as EvictionHandler from './eviction.lazy';

const evictionHandler = new LazyModule<typeof EvictionHandler>('eviction', () => import('./eviction.lazy'));

/** The eviction storage of the pods whose store is `ctx.store` (see eviction.ts). */
export function evictionStorage(ctx: StoredKindContext): NamedCreater & KindOverride {
  const sub = ctx.rt.subresources.get('eviction');
  const handler = evictionHandler.builtOnFirstUse((m) => m.evictionStorage(ctx));
  return {
    objectKind: { group: sub?.group ?? 'policy', version: sub?.version ?? 'v1', kind: 'Eviction' },
    async createNamed(scope, name, object, options) {
      return (await handler()).createNamed(scope, name, object, options);
    },
  };
}
