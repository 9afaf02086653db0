/**
 * The authorizer interface: the attributes of a request as authorization
 * sees them (the real server's `authorizer.Attributes`), its decision, and
 * the rules a user holds (for SelfSubjectRulesReview). RBAC and the node
 * authorizer implement it; until they land the server is served by
 * `allowAll`, under which every authenticated request may do everything.
 */

import type { UserInfo } from '../api/authn';

export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  /** Resource requests: the API group, version, resource, subresource, namespace and name. */
  resourceRequest: boolean;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** Non-resource requests: the path. */
  path: string;
}

/** A non-resource request's resource fields: all empty (the request is told by its verb and path). */
export const noResourceFields = Object.freeze({
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  namespace: '',
  name: '',
});

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationResult {
  decision: Decision;
  reason: string;
  /** Set when evaluating hit an error (a missing role); real servers append it to a 403's message. */
  evaluationError?: string;
}

export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface UserRules {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult>;
  /** The rules `user` holds in `namespace` (SelfSubjectRulesReview). */
  rulesFor(user: UserInfo, namespace: string): Promise<UserRules>;
}

/** Every request may do everything: the server's behaviour until RBAC is enabled. */
export const allowAll: Authorizer = {
  authorize: async () => ({ decision: 'Allow', reason: '' }),
  rulesFor: async () => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  }),
};
