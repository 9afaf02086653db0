/**
 * The Kubernetes authorization library, offered to admission expressions
 * only (match conditions, validating admission policies; never to CRD
 * rules): `authorizer.group(g).resource(r).namespace(ns).name(n).check(verb)`,
 * `authorizer.path(p).check(verb)`, `authorizer.serviceAccount(ns, name)`,
 * `authorizer.requestResource`, and `allowed()` / `reason()` on the decision.
 * A check costs 350,000 units, so an expression affords two. The host's
 * authorizer is handed in as a synchronous callback.
 */

import type { UserInfo } from '../api/authn';
import type { Environment } from './engine';

export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  /** Resource requests. */
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Non-resource requests. */
  path?: string;
}

export interface AuthorizationDecision {
  decision: 'allow' | 'deny' | 'no-opinion';
  reason: string;
}

/** Answers an authorization question synchronously (the server's authorizer, e.g. RBAC over in-memory listers). */
export type CelAuthorizer = (attributes: AuthorizationAttributes) => AuthorizationDecision;

export class AuthorizerValue {
  constructor(
    readonly authorize: CelAuthorizer,
    readonly user: UserInfo,
    readonly requestResource: ResourceCheckValue,
  ) {}
}

export class PathCheckValue {
  constructor(
    readonly authz: AuthorizerValue,
    readonly path: string,
  ) {}
}

export class GroupCheckValue {
  constructor(
    readonly authz: AuthorizerValue,
    readonly group: string,
  ) {}
}

export class ResourceCheckValue {
  constructor(
    readonly authz: AuthorizerValue | undefined,
    readonly attrs: Omit<AuthorizationAttributes, 'user' | 'verb'>,
  ) {}

  with(extra: Partial<AuthorizationAttributes>): ResourceCheckValue {
    return new ResourceCheckValue(this.authz, { ...this.attrs, ...extra });
  }
}

export class DecisionValue {
  constructor(readonly result: AuthorizationDecision) {}
}

/** The `authorizer` variable for a request by `user` on `requestResource`. */
export function authorizerValue(
  authorize: CelAuthorizer,
  user: UserInfo,
  requestResource: Omit<AuthorizationAttributes, 'user' | 'verb'>,
): AuthorizerValue {
  const authz = new AuthorizerValue(authorize, user, new ResourceCheckValue(undefined, requestResource));
  (authz.requestResource as { authz: AuthorizerValue | undefined }).authz = authz;
  return authz;
}

const AUTHORIZER = 'kubernetes.authorization.Authorizer';
const PATH = 'kubernetes.authorization.PathCheck';
const GROUP = 'kubernetes.authorization.GroupCheck';
const RESOURCE = 'kubernetes.authorization.ResourceCheck';
const DECISION = 'kubernetes.authorization.Decision';
const SYNC = { async: false };

function check(
  authz: AuthorizerValue | undefined,
  attrs: Omit<AuthorizationAttributes, 'user' | 'verb'>,
  verb: string,
): DecisionValue {
  if (authz === undefined) return new DecisionValue({ decision: 'no-opinion', reason: 'no authorizer' });
  return new DecisionValue(authz.authorize({ ...attrs, user: authz.user, verb }));
}

export function registerAuthzLibrary(engine: Environment): void {
  engine.registerType(AUTHORIZER, { ctor: AuthorizerValue, fields: { requestResource: RESOURCE } });
  engine.registerType(PATH, { ctor: PathCheckValue, fields: {} });
  engine.registerType(GROUP, { ctor: GroupCheckValue, fields: {} });
  engine.registerType(RESOURCE, { ctor: ResourceCheckValue, fields: {} });
  engine.registerType(DECISION, { ctor: DecisionValue, fields: {} });
  engine.registerFunction(
    `${AUTHORIZER}.path(string): ${PATH}`,
    (a: AuthorizerValue, p: string) => new PathCheckValue(a, p),
    SYNC,
  );
  engine.registerFunction(
    `${AUTHORIZER}.group(string): ${GROUP}`,
    (a: AuthorizerValue, g: string) => new GroupCheckValue(a, g),
    SYNC,
  );
  engine.registerFunction(
    `${AUTHORIZER}.serviceAccount(string, string): ${AUTHORIZER}`,
    (a: AuthorizerValue, ns: string, name: string) =>
      authorizerValue(
        a.authorize,
        {
          username: `system:serviceaccount:${ns}:${name}`,
          groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
        },
        a.requestResource.attrs,
      ),
    SYNC,
  );
  engine.registerFunction(
    `${GROUP}.resource(string): ${RESOURCE}`,
    (g: GroupCheckValue, r: string) => new ResourceCheckValue(g.authz, { apiGroup: g.group, resource: r }),
    SYNC,
  );
  engine.registerFunction(
    `${RESOURCE}.subresource(string): ${RESOURCE}`,
    (r: ResourceCheckValue, v: string) => r.with({ subresource: v }),
    SYNC,
  );
  engine.registerFunction(
    `${RESOURCE}.namespace(string): ${RESOURCE}`,
    (r: ResourceCheckValue, v: string) => r.with({ namespace: v }),
    SYNC,
  );
  engine.registerFunction(
    `${RESOURCE}.name(string): ${RESOURCE}`,
    (r: ResourceCheckValue, v: string) => r.with({ name: v }),
    SYNC,
  );
  engine.registerFunction(
    `${RESOURCE}.check(string): ${DECISION}`,
    (r: ResourceCheckValue, verb: string) => check(r.authz, r.attrs, verb),
    SYNC,
  );
  engine.registerFunction(
    `${PATH}.check(string): ${DECISION}`,
    (p: PathCheckValue, verb: string) => check(p.authz, { path: p.path }, verb),
    SYNC,
  );
  engine.registerFunction(
    `${DECISION}.allowed(): bool`,
    (d: DecisionValue) => d.result.decision === 'allow',
    SYNC,
  );
  engine.registerFunction(`${DECISION}.reason(): string`, (d: DecisionValue) => d.result.reason, SYNC);
}
