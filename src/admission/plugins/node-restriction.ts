/**
 * NodeRestriction: the admission half of node isolation (the Node
 * authorizer is the other). A node agent — user `system:node:<name>` in
 * group `system:nodes` — may write only what belongs to its own node: its
 * Node (never another's, never deleting it, not its taints, not its config
 * source, only its own kind of labels), mirror pods bound to it (which
 * reference nothing secret), status and eviction of pods bound to it, the
 * status of claims, tokens for its own pods, its Lease and its CSINode.
 * Everyone else passes untouched.
 */

import type { KubeObject } from '../../api/meta';
import { nodeIdentity } from '../../auth/authz/node';
import { notFound } from '../../machinery/errors';
import { goQuote } from '../../machinery/go-format';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';
import { nodeObjectCheck } from './node-restriction/node';
import {
  referencesClaims,
  referencesClusterTrustBundles,
  referencesConfigMaps,
  referencesSecrets,
} from './node-restriction/pod-refs';
import { claimStatusCheck } from './node-restriction/claim';

type Json = Record<string, unknown>;

const specOf = (o: KubeObject | undefined): Json => (o?.spec ?? {}) as Json;
const nodeNameOf = (o: KubeObject | undefined): string => {
  const n = specOf(o).nodeName;
  return typeof n === 'string' ? n : '';
};

export const nodeRestriction: AdmissionPluginFactory = (deps) => {
  const pods = deps.lister('', 'pods');
  const nodes = deps.lister('', 'nodes');
  const coordination = deps.profile.suffixed('coordination');
  const storage = deps.profile.suffixed('storage');
  const mirrorAnnotation = deps.profile.prefixed('config.mirror');
  const checkNode = nodeObjectCheck(deps.profile);
  const checkClaimStatus = claimStatusCheck(deps.featureGates['RecoverVolumeExpansionFailure'] === true);

  const existingPod = async (a: AdmissionAttributes, name: string): Promise<KubeObject> => {
    await deps.listersSynced();
    const pod = pods.get(a.namespace, name);
    if (pod === undefined) throw notFound({ group: '', resource: 'pods' }, name);
    return pod;
  };

  const admitPodCreate = async (node: string, a: AdmissionAttributes): Promise<void> => {
    const pod = a.object ?? {};
    const fail = (why: string) => admissionForbidden(a, why);
    if (pod.metadata?.annotations?.[mirrorAnnotation] === undefined)
      throw fail(
        `pod does not have ${goQuote(mirrorAnnotation)} annotation, node ${goQuote(node)} can only create mirror pods`,
      );
    if (nodeNameOf(pod) !== node)
      throw fail(`node ${goQuote(node)} can only create pods with spec.nodeName set to itself`);
    const owners = pod.metadata?.ownerReferences ?? [];
    if (owners.length > 1)
      throw fail(`node ${goQuote(node)} can only create pods with a single owner reference set to itself`);
    const [owner] = owners;
    if (owner === undefined || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node)
      throw fail(`node ${goQuote(node)} can only create pods with an owner reference set to itself`);
    if (owner.controller !== true)
      throw fail(
        `node ${goQuote(node)} can only create pods with a controller owner reference set to itself`,
      );
    if (owner.blockOwnerDeletion === true)
      throw fail(`node ${goQuote(node)} must not set blockOwnerDeletion on an owner reference`);
    await deps.listersSynced();
    const self = nodes.get('', node);
    if (self === undefined) throw notFound({ group: '', resource: 'nodes' }, node);
    if (owner.uid !== self.metadata?.uid)
      throw fail(`node ${node} UID mismatch: expected ${owner.uid} got ${self.metadata?.uid ?? ''}`);
    const spec = specOf(pod);
    if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '')
      throw fail(`node ${goQuote(node)} can not create pods that reference a service account`);
    if (referencesSecrets(spec))
      throw fail(`node ${goQuote(node)} can not create pods that reference secrets`);
    if (referencesConfigMaps(spec))
      throw fail(`node ${goQuote(node)} can not create pods that reference configmaps`);
    if (referencesClusterTrustBundles(spec))
      throw fail(`node ${goQuote(node)} can not create pods that reference clustertrustbundles`);
    if (referencesClaims(spec))
      throw fail(`node ${goQuote(node)} can not create pods that reference persistentvolumeclaims`);
  };

  const admitPod = async (node: string, a: AdmissionAttributes): Promise<void> => {
    switch (a.subresource) {
      case '':
        if (a.operation === 'CREATE') return admitPodCreate(node, a);
        if (a.operation === 'DELETE') {
          if (nodeNameOf(await existingPod(a, a.name)) !== node)
            throw admissionForbidden(
              a,
              `node ${goQuote(node)} can only delete pods with spec.nodeName set to itself`,
            );
          return;
        }
        throw admissionForbidden(
          a,
          `unexpected operation ${goQuote(a.operation)}, node ${goQuote(node)} can only create and delete mirror pods`,
        );
      case 'status':
        if (a.operation !== 'UPDATE')
          throw admissionForbidden(a, `unexpected operation ${goQuote(a.operation)}`);
        if (nodeNameOf(a.oldObject) !== node)
          throw admissionForbidden(
            a,
            `node ${goQuote(node)} can only update pod status for pods with spec.nodeName set to itself`,
          );
        if (!sameLabels(a.object, a.oldObject))
          throw admissionForbidden(a, `node ${goQuote(node)} cannot update labels through pod status`);
        return;
      case 'eviction': {
        if (a.operation !== 'CREATE') throw admissionForbidden(a, `unexpected operation ${a.operation}`);
        // The pod named by the request path wins over the one the Eviction body names.
        const podName = a.name !== '' ? a.name : (a.object?.metadata?.name ?? '');
        if (podName === '') throw admissionForbidden(a, 'could not determine pod from request data');
        if (nodeNameOf(await existingPod(a, podName)) !== node)
          throw admissionForbidden(a, `node ${node} can only evict pods with spec.nodeName set to itself`);
        return;
      }
      default:
        throw admissionForbidden(
          a,
          `unexpected pod subresource ${goQuote(a.subresource)}, only 'status' and 'eviction' are allowed`,
        );
    }
  };

  const admitToken = async (node: string, a: AdmissionAttributes): Promise<void> => {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    const ref = specOf(a.object).boundObjectRef as
      { apiVersion?: string; kind?: string; name?: string; uid?: string } | undefined;
    if (ref === undefined || ref === null || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name)
      throw admissionForbidden(a, 'node requested token not bound to a pod');
    if (!ref.uid) throw admissionForbidden(a, 'node requested token with a pod binding without a uid');
    const pod = await existingPod(a, ref.name);
    if (ref.uid !== pod.metadata?.uid)
      throw admissionForbidden(
        a,
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    if (nodeNameOf(pod) !== node)
      throw admissionForbidden(a, 'node requested token bound to a pod scheduled on a different node');
  };

  /** Leases and CSINodes: only the object named after the node (on create the name is the new object's). */
  const ownNamed = (node: string, a: AdmissionAttributes, what: string): void => {
    const name = a.operation === 'CREATE' ? (a.object?.metadata?.name ?? '') : a.name;
    if (name !== node)
      throw admissionForbidden(a, `can only access ${what} with the same name as the requesting node`);
  };

  return {
    name: 'NodeRestriction',
    operations: ['CREATE', 'UPDATE', 'DELETE'],
    async admit(a): Promise<KubeObject | undefined> {
      const node = nodeIdentity(a.user);
      if (node === undefined) return undefined;
      if (node === '')
        throw admissionForbidden(a, `could not determine node from user ${goQuote(a.user.username)}`);
      const key = `${a.group}|${a.resource}`;
      switch (key) {
        case '|pods':
          await admitPod(node, a);
          break;
        case '|nodes':
          checkNode(node, a);
          break;
        case '|persistentvolumeclaims':
          if (a.subresource !== 'status') throw admissionForbidden(a, 'may only update PVC status');
          checkClaimStatus(node, a);
          break;
        case '|serviceaccounts':
          await admitToken(node, a);
          break;
        case `${coordination}|leases`:
          if (a.namespace !== deps.profile.nodeLeaseNamespace)
            throw admissionForbidden(
              a,
              `can only access leases in the ${goQuote(deps.profile.nodeLeaseNamespace)} system namespace`,
            );
          ownNamed(node, a, 'node lease');
          break;
        case `${storage}|csinodes`:
          ownNamed(node, a, 'CSINode');
          break;
      }
      return undefined;
    },
  };
};

function sameLabels(a: KubeObject | undefined, b: KubeObject | undefined): boolean {
  const x = a?.metadata?.labels ?? {};
  const y = b?.metadata?.labels ?? {};
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}
