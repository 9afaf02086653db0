/**
 * The core kinds' rarely asked subresources as they are registered: a
 * storage whose methods (the ones discovery and routing read: the connect
 * methods, the object kind) are known at once, and whose handler
 * (subresources.lazy.ts) is built on the first request to it. Their code
 * was worker script every first visit compiled without running.
 */

import { LazyModule } from '../../../machinery/lazy-module';
import type { Connecter, KindOverride, NamedCreater } from '../../rest/capabilities';
import type { StoredKindContext } from '../types';
import type * as Subresources from './subresources.lazy';

type Module = typeof Subresources;
type ObjectKind = NonNullable<KindOverride['objectKind']>;

const subresources = new LazyModule<Module>('subresources', () => import('./subresources.lazy'));

/** The module, for a storage that needs one of its functions rather than a whole storage. */
export function loadSubresources(): Promise<Module> {
  return subresources.load();
}

// What a subresource's registration answers before its storage is loaded, and what that storage answers
// once it is: each is written here once, for both.

/** The methods the real pod, node and service proxies accept. */
export const proxyMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** exec, attach and portforward: GET for browsers' WebSockets, POST for SPDY. */
export const streamMethods = ['GET', 'POST'] as const;

/** log: a getter with options in the real server, so GET only. */
export const logMethods = ['GET'] as const;

/** What pods/binding (and the top-level bindings) answer as. */
export const bindingKind: ObjectKind = { group: '', version: 'v1', kind: 'Binding' };

/** What serviceaccounts/token answers as: the TokenRequest of the served authentication group. */
export function tokenRequestKind(ctx: StoredKindContext): ObjectKind {
  const sub = ctx.rt.subresources.get('token');
  return {
    group: sub?.group ?? ctx.deps.profile.suffixed('authentication'),
    version: sub?.version ?? 'v1',
    kind: 'TokenRequest',
  };
}

/** A connect subresource (`make` names its storage in the loaded module) accepting `methods`. */
export function lazyConnecter(
  methods: readonly string[],
  make: (module: Module, ctx: StoredKindContext) => Connecter,
): (ctx: StoredKindContext) => Connecter {
  return (ctx) => {
    const handler = subresources.builtOnFirstUse((m) => make(m, ctx));
    return {
      connectMethods: methods,
      async connect(scope, name, method, query) {
        return (await handler()).connect(scope, name, method, query);
      },
    };
  };
}

/** A subresource that creates through a named object, answering as `objectKind` says (its kind known at once). */
export function lazyNamedCreater(
  objectKind: (ctx: StoredKindContext) => KindOverride['objectKind'],
  make: (module: Module, ctx: StoredKindContext) => NamedCreater & KindOverride,
): (ctx: StoredKindContext) => NamedCreater & KindOverride {
  return (ctx) => {
    const handler = subresources.builtOnFirstUse((m) => make(m, ctx));
    return {
      objectKind: objectKind(ctx),
      async createNamed(scope, name, object, options) {
        return (await handler()).createNamed(scope, name, object, options);
      },
    };
  };
}
