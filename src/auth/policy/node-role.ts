/**
 * The rules of `system:node`, the bootstrap policy's role of kubelets, on
 * their own: the Node authorizer grants them to every node (narrowed to the
 * node's own objects) from the start, while the rest of the policy is only
 * written by the post-start hook (`server/post-start.lazy.ts`).
 */

import { READ, rule, type PolicyNames } from './names';
import type { PolicyRule } from './types';

export function systemNodeRules(n: PolicyNames): PolicyRule[] {
  const { g } = n;
  const core = [g.core];
  return [
    // Checking API access; these creates do not mutate.
    rule('create', [g.authentication], 'tokenreviews'),
    rule('create', [g.authorization], 'subjectaccessreviews localsubjectaccessreviews'),
    // Service environment variables of pods.
    rule(READ, core, 'services'),
    // Registration and status of its own Node (the Node authorizer narrows these to the node itself).
    rule('create get list watch', core, 'nodes'),
    rule('update patch', core, 'nodes/status'),
    rule('update patch', core, 'nodes'),
    rule('create update patch', core, 'events'),
    rule(READ, core, 'pods'),
    // Mirror pods.
    rule('create delete', core, 'pods'),
    rule('update patch', core, 'pods/status'),
    rule('create', core, 'pods/eviction'),
    rule(READ, core, 'secrets configmaps'),
    rule('get', core, 'persistentvolumeclaims persistentvolumes'),
    rule('get', core, 'endpoints'),
    rule('create get list watch', [g.certificates], 'certificatesigningrequests'),
    rule('get create update patch delete', [g.coordination], 'leases'),
    rule('get', [g.storage], 'volumeattachments'),
    rule('create', core, 'serviceaccounts/token'),
    rule('get update patch', core, 'persistentvolumeclaims/status'),
    rule(READ, [g.storage], 'csidrivers'),
    rule('get create update patch delete', [g.storage], 'csinodes'),
    rule(READ, [g.node], 'runtimeclasses'),
  ];
}
