/**
 * The Node authorizer (v1.27) for node agents — user `system:node:<name>`
 * in group `system:nodes`. Secrets, configmaps, claims, volumes, resource
 * claims, volume attachments and service-account tokens are subdivided:
 * only objects related to the node's pods (see `node-graph.ts`) and only
 * the verbs a node agent needs; its Lease and CSINode by name; everything
 * else is checked against the static node rules (the `system:node` role's
 * rules, which the real authorizer embeds — its NodeRestriction admission,
 * not the authorizer, then limits writes to the node's own objects).
 * Requests of other users, and refusals, are NoOpinion with the real
 * reason texts.
 */

import type { UserInfo } from '../../api/authn';
import { goQuote } from '../../machinery/go-format';
import type { NamingProfile } from '../../machinery/naming';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserRules } from '../authorizer';
import { NodeGraph, type NodeGraphListers } from './node-graph';
import { type PolicyRule, rulesAllow } from './rules';

const nodeUserPrefix = 'system:node:';
export const nodesGroup = 'system:nodes';

/** The node name of a node agent's identity; undefined for other users, '' for an unnamed node. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.username.startsWith(nodeUserPrefix)) return undefined;
  if (!user.groups.includes(nodesGroup)) return undefined;
  return user.username.slice(nodeUserPrefix.length);
}

export interface NodeAuthorizerDeps extends NodeGraphListers {
  profile: NamingProfile;
  /** The rules of the `system:node` ClusterRole of the bootstrap policy. */
  nodeRules: readonly PolicyRule[];
}

const noOpinion = (reason: string): AuthorizationResult => ({ decision: 'NoOpinion', reason });
const allow: AuthorizationResult = { decision: 'Allow', reason: '' };

export class NodeAuthorizer implements Authorizer {
  private readonly graph: NodeGraph;
  private readonly groups: { storage: string; coordination: string; resource: string };

  constructor(private readonly deps: NodeAuthorizerDeps) {
    this.graph = new NodeGraph(deps, deps.profile);
    this.groups = {
      storage: deps.profile.suffixed('storage'),
      coordination: deps.profile.suffixed('coordination'),
      resource: deps.profile.suffixed('resource'),
    };
  }

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    return Promise.resolve(this.authorizeSync(a));
  }

  authorizeSync(a: AuthorizationAttributes): AuthorizationResult {
    const node = nodeIdentity(a.user);
    if (node === undefined) return noOpinion('');
    if (node === '') return noOpinion(`unknown node for user ${goQuote(a.user.username)}`);
    if (a.resourceRequest) {
      const g = this.groups;
      const graph = this.graph;
      const key = `${a.apiGroup}|${a.resource}`;
      switch (key) {
        case '|secrets':
          return this.readNamespaced(node, a, () => graph.secret(node, a.namespace, a.name));
        case '|configmaps':
          return this.readNamespaced(node, a, () => graph.configMap(node, a.namespace, a.name));
        case '|persistentvolumeclaims':
          if (a.subresource === 'status')
            return this.statusUpdate(node, a, () => graph.persistentVolumeClaim(node, a.namespace, a.name));
          return this.getOnly(node, a, () => graph.persistentVolumeClaim(node, a.namespace, a.name));
        case '|persistentvolumes':
          return this.getOnly(node, a, () => graph.persistentVolume(node, a.name));
        case `${g.resource}|resourceclaims`:
          return this.getOnly(node, a, () => graph.resourceClaim(node, a.namespace, a.name));
        case `${g.storage}|volumeattachments`:
          return this.getOnly(node, a, () => graph.volumeAttachment(node, a.name));
        case '|serviceaccounts':
          return this.createToken(node, a);
        case `${g.coordination}|leases`:
          return this.lease(node, a);
        case `${g.storage}|csinodes`:
          return this.csiNode(node, a);
      }
    }
    return rulesAllow(a, this.deps.nodeRules) ? allow : noOpinion('');
  }

  /** Whether the user is a node agent, whose permissions this authorizer cannot enumerate. */
  nodeRulesIncomplete(user: UserInfo): boolean {
    return nodeIdentity(user) !== undefined;
  }

  /** Nodes' permissions are not enumerable: SelfSubjectRulesReview says so. */
  async rulesFor(user: UserInfo): Promise<UserRules> {
    if (nodeIdentity(user) === undefined)
      return Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete: false });
    return Promise.resolve({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'node authorizer does not support user rule resolution',
    });
  }

  private related(node: string, a: AuthorizationAttributes, related: () => boolean): AuthorizationResult {
    if (a.name === '') return noOpinion('No Object name found');
    return related() ? allow : noOpinion(`no relationship found between node '${node}' and this object`);
  }

  private readNamespaced(
    node: string,
    a: AuthorizationAttributes,
    related: () => boolean,
  ): AuthorizationResult {
    if (!['get', 'list', 'watch'].includes(a.verb)) return noOpinion('can only read resources of this type');
    if (a.subresource !== '') return noOpinion('cannot read subresource');
    if (a.namespace === '') return noOpinion('can only read namespaced object of this type');
    return this.related(node, a, related);
  }

  private getOnly(node: string, a: AuthorizationAttributes, related: () => boolean): AuthorizationResult {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource !== '') return noOpinion('cannot get subresource');
    return this.related(node, a, related);
  }

  private statusUpdate(
    node: string,
    a: AuthorizationAttributes,
    related: () => boolean,
  ): AuthorizationResult {
    if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
    if (a.subresource !== 'status') return noOpinion('can only update status subresource');
    return this.related(node, a, related);
  }

  private createToken(node: string, a: AuthorizationAttributes): AuthorizationResult {
    if (a.verb !== 'create' || a.name === '')
      return noOpinion('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return this.graph.serviceAccount(node, a.namespace, a.name)
      ? allow
      : noOpinion(`no relationship found between node '${node}' and this object`);
  }

  private lease(node: string, a: AuthorizationAttributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb))
      return noOpinion('can only get, create, update, patch, or delete a node lease');
    const ns = this.deps.profile.nodeLeaseNamespace;
    if (a.namespace !== ns) return noOpinion(`can only access leases in the ${goQuote(ns)} system namespace`);
    // A create carries no name yet; NodeRestriction admission checks it then.
    if (a.verb !== 'create' && a.name !== node)
      return noOpinion('can only access node lease with the same name as the requesting node');
    return allow;
  }

  private csiNode(node: string, a: AuthorizationAttributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb))
      return noOpinion('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource !== '') return noOpinion('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== node)
      return noOpinion('can only access CSINode with the same name as the requesting node');
    return allow;
  }
}
