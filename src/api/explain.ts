/**
 * Why a request was refused, for learners (a wire contract, so plain types
 * every layer may use): the sandbox attaches this to
 * every 401 and 403 (response header `X-Sandbox-Explain`, URI-encoded JSON)
 * beside the real Status body, which stays exactly the real server's. For a
 * 401, which authenticators were tried and why each did not accept the
 * request; for a 403, which bindings and roles were considered, the rule
 * that came closest, what was missing, and a Role and binding that would
 * allow exactly this request.
 */

import type { UserInfo } from './authn';
import type { KubeObject } from './meta';

/** What a request asked, as authorization saw it (the authorizer's attributes without the user). */
export interface ExplainedAttributes {
  verb: string;
  resourceRequest: boolean;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
}

/** An RBAC rule as an explanation names it. */
export interface ExplainedRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

export const explainHeader = 'X-Sandbox-Explain';

export interface AuthenticatorAttempt {
  /** `x509`, `requestheader`, `token-file`, `service-account`, `bootstrap-token`, `oidc`, `webhook`, `anonymous`, … */
  authenticator: string;
  /** No credential of its kind was presented; the credential was rejected; it failed to answer. */
  result: 'no-credential' | 'rejected' | 'error' | 'accepted';
  reason?: string;
}

export interface AuthenticationExplanation {
  kind: 'authentication';
  attempts: AuthenticatorAttempt[];
}

export interface ConsideredBinding {
  binding: { kind: 'RoleBinding' | 'ClusterRoleBinding'; name: string; namespace?: string };
  role: { kind: 'Role' | 'ClusterRole'; name: string; found: boolean };
  /** How the binding's subjects matched the user ('user', 'group <g>', 'serviceaccount') or why not. */
  subjectMatch: string;
  /** The rule of the role that came closest to allowing the request, and what it lacked (verb, resource, …). */
  closestRule?: ExplainedRule;
  missing?: string[];
}

export interface AuthorizationExplanation {
  kind: 'authorization';
  user: UserInfo;
  attributes: ExplainedAttributes;
  /** Each authorizer's decision in mode order (`Node: NoOpinion`, `RBAC: NoOpinion`). */
  decisions: { authorizer: string; decision: string; reason: string }[];
  considered: ConsideredBinding[];
  /** A Role (or ClusterRole) and its binding that would allow exactly this request. */
  suggestion?: { role: KubeObject; binding: KubeObject };
  /** Bindings considered but left out to keep the header small (those whose subjects did not match go first). */
  omittedBindings?: number;
}

export type Explanation = AuthenticationExplanation | AuthorizationExplanation;
