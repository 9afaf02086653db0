/**
 * Builds the request scope a storage operation runs in from the HTTP
 * request: who asks, the request's uid, what the path addressed (the
 * resource and kind as requested — a Scale for `deployments/scale`), dry
 * run and the write's options as the real server hands them to admission.
 */

import type { JsonObject } from '../api/meta';
import type { NamingProfile } from '../machinery/naming';
import type { RestStorage } from '../registry/rest/capabilities';
import type { RequestScope, RequestVerb } from '../registry/rest/scope';
import type { RequestContext } from './context';
import type { ResolvedRequest } from './dispatch';

export interface ScopeOptions {
  dryRun?: boolean;
  /** The options object admission sees (CreateOptions, …; see `optionsObject`). */
  options?: JsonObject;
  /** Overrides the object the path names (deletecollection deletes each listed one). */
  namespace?: string;
  name?: string;
}

export function requestScope(
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage,
  verb: RequestVerb,
  o: ScopeOptions = {},
): RequestScope {
  const { rt, info } = req;
  const kind = storage.objectKind ?? { group: rt.group, version: rt.version, kind: rt.kind };
  return {
    user: ctx.user,
    uid: ctx.auditId,
    verb,
    namespace: o.namespace ?? req.namespace,
    name: o.name ?? info.name,
    subresource: info.subresource,
    requestResource: { group: rt.group, version: rt.version, resource: rt.resource },
    requestKind: kind,
    dryRun: o.dryRun === true,
    ...(o.options !== undefined ? { options: o.options } : {}),
    warnings: ctx.warnings,
    ...(ctx.trace !== undefined ? { trace: ctx.trace } : {}),
    ...(ctx.auditAnnotations !== undefined ? { annotations: ctx.auditAnnotations } : {}),
    now: ctx.now,
    signal: ctx.signal,
  };
}

/** A write's options as admission sees them: `{kind: 'CreateOptions', apiVersion: 'meta/v1', dryRun: ['All'], fieldManager}`. */
export function optionsObject(
  profile: NamingProfile,
  kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions',
  query: URLSearchParams,
  extra: JsonObject = {},
): JsonObject {
  const out: JsonObject = { kind, apiVersion: `${profile.metaGroup}/v1` };
  if (query.getAll('dryRun').includes('All')) out.dryRun = ['All'];
  const manager = query.get('fieldManager');
  if (kind !== 'DeleteOptions' && manager !== null && manager !== '') out.fieldManager = manager;
  return { ...out, ...extra };
}
