/**
 * The node authorizer's relationships, computed on demand from listers
 * rather than kept as a graph: an object is related to a node when a path
 * leads from it to the node as in the real authorizer's graph — secret,
 * configmap, service account, claim or resource claim → pod bound to the
 * node; persistent volume → its bound claim → such a pod; a volume's
 * secret → the volume; volume attachment → its node. Mirror pods (which a
 * node creates itself) lead only to the node, never to other objects, so a
 * node cannot grant itself access by creating one.
 */

import type { KubeObject } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';
import type { ObjectLister } from '../listers';
import { POD_NODE_INDEX, PV_CLAIM_INDEX } from './indexes';

export interface NodeGraphListers {
  pods: ObjectLister;
  persistentVolumes?: ObjectLister;
  volumeAttachments?: ObjectLister;
}

type Json = Record<string, unknown>;

function rec(v: unknown): Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}
function arr(v: unknown): Json[] {
  return Array.isArray(v) ? (v as unknown[]).map(rec) : [];
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Names a pod references of one kind (in the pod's namespace). */
export interface PodReferences {
  secrets: Set<string>;
  configMaps: Set<string>;
  claims: Set<string>;
  resourceClaims: Set<string>;
  serviceAccount: string;
}

function allContainers(spec: Json): Json[] {
  return [...arr(spec.initContainers), ...arr(spec.containers), ...arr(spec.ephemeralContainers)];
}

/** What a (non-mirror) pod references, as the real pod visitors enumerate it. */
export function podReferences(pod: KubeObject): PodReferences {
  const spec = rec(pod.spec);
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const claims = new Set<string>();
  const resourceClaims = new Set<string>();
  const add = (set: Set<string>, name: string) => {
    if (name !== '') set.add(name);
  };
  for (const s of arr(spec.imagePullSecrets)) add(secrets, str(s.name));
  for (const c of allContainers(spec)) {
    for (const e of arr(c.envFrom)) {
      add(secrets, str(rec(e.secretRef).name));
      add(configMaps, str(rec(e.configMapRef).name));
    }
    for (const e of arr(c.env)) {
      const from = rec(e.valueFrom);
      add(secrets, str(rec(from.secretKeyRef).name));
      add(configMaps, str(rec(from.configMapKeyRef).name));
    }
  }
  const podName = pod.metadata?.name ?? '';
  for (const v of arr(spec.volumes)) {
    add(secrets, str(rec(v.secret).secretName));
    add(secrets, str(rec(v.azureFile).secretName));
    for (const k of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'])
      add(secrets, str(rec(rec(v[k]).secretRef).name));
    add(secrets, str(rec(rec(v.csi).nodePublishSecretRef).name));
    add(configMaps, str(rec(v.configMap).name));
    for (const source of arr(rec(v.projected).sources)) {
      add(secrets, str(rec(source.secret).name));
      add(configMaps, str(rec(source.configMap).name));
    }
    add(claims, str(rec(v.persistentVolumeClaim).claimName));
    // A generic ephemeral volume's claim is named `<pod>-<volume>`.
    if (v.ephemeral !== undefined && v.ephemeral !== null) add(claims, `${podName}-${str(v.name)}`);
  }
  for (const c of arr(spec.resourceClaims)) {
    const source = rec(c.source);
    if (str(source.resourceClaimName) !== '') add(resourceClaims, str(source.resourceClaimName));
    else if (str(source.resourceClaimTemplateName) !== '') add(resourceClaims, `${podName}-${str(c.name)}`);
  }
  return { secrets, configMaps, claims, resourceClaims, serviceAccount: str(spec.serviceAccountName) };
}

/** Secrets (namespace, name) a persistent volume gives its node agent access to (the kubelet-visible ones). */
export function persistentVolumeSecrets(pv: KubeObject): { namespace: string; name: string }[] {
  const spec = rec(pv.spec);
  const claimNs = str(rec(spec.claimRef).namespace);
  const out: { namespace: string; name: string }[] = [];
  const ref = (r: Json) => {
    if (str(r.name) !== '') out.push({ namespace: str(r.namespace) || claimNs, name: str(r.name) });
  };
  for (const k of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'])
    ref(rec(rec(spec[k]).secretRef));
  const azure = rec(spec.azureFile);
  if (str(azure.secretName) !== '')
    out.push({ namespace: str(azure.secretNamespace) || claimNs, name: str(azure.secretName) });
  const csi = rec(spec.csi);
  for (const k of ['nodePublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef']) ref(rec(csi[k]));
  return out;
}

export class NodeGraph {
  private readonly mirrorAnnotation: string;

  constructor(
    private readonly listers: NodeGraphListers,
    profile: NamingProfile,
  ) {
    this.mirrorAnnotation = profile.prefixed('config.mirror');
  }

  /** Pods bound to the node. */
  podsOn(node: string): KubeObject[] {
    try {
      return this.listers.pods.byIndex(POD_NODE_INDEX, node);
    } catch {
      return this.listers.pods.list().filter((p) => rec(p.spec).nodeName === node);
    }
  }

  /** Pods bound to the node that may lead to other objects (mirror pods do not). */
  private referencingPods(node: string, namespace: string): PodReferences[] {
    return this.podsOn(node)
      .filter((p) => (p.metadata?.namespace ?? '') === namespace)
      .filter((p) => p.metadata?.annotations?.[this.mirrorAnnotation] === undefined)
      .map(podReferences);
  }

  private claimUsed(node: string, namespace: string, claim: string): boolean {
    return this.referencingPods(node, namespace).some((r) => r.claims.has(claim));
  }

  secret(node: string, namespace: string, name: string): boolean {
    if (this.referencingPods(node, namespace).some((r) => r.secrets.has(name))) return true;
    // secret → persistent volume → its claim → a pod on the node
    for (const pv of this.volumesOfNodeClaims(node))
      if (persistentVolumeSecrets(pv).some((s) => s.namespace === namespace && s.name === name)) return true;
    return false;
  }

  configMap(node: string, namespace: string, name: string): boolean {
    return this.referencingPods(node, namespace).some((r) => r.configMaps.has(name));
  }

  serviceAccount(node: string, namespace: string, name: string): boolean {
    return this.referencingPods(node, namespace).some((r) => r.serviceAccount === name);
  }

  persistentVolumeClaim(node: string, namespace: string, name: string): boolean {
    return this.claimUsed(node, namespace, name);
  }

  resourceClaim(node: string, namespace: string, name: string): boolean {
    return this.referencingPods(node, namespace).some((r) => r.resourceClaims.has(name));
  }

  persistentVolume(node: string, name: string): boolean {
    const pv = this.listers.persistentVolumes?.get('', name);
    if (pv === undefined) return false;
    const ref = rec(rec(pv.spec).claimRef);
    return str(ref.name) !== '' && this.claimUsed(node, str(ref.namespace), str(ref.name));
  }

  volumeAttachment(node: string, name: string): boolean {
    const va = this.listers.volumeAttachments?.get('', name);
    return va !== undefined && str(rec(va.spec).nodeName) === node;
  }

  /** Persistent volumes bound to claims that pods on the node use. */
  private volumesOfNodeClaims(node: string): KubeObject[] {
    const lister = this.listers.persistentVolumes;
    if (lister === undefined) return [];
    const keys = new Set<string>();
    for (const pod of this.podsOn(node)) {
      if (pod.metadata?.annotations?.[this.mirrorAnnotation] !== undefined) continue;
      for (const c of podReferences(pod).claims) keys.add(`${pod.metadata?.namespace ?? ''}/${c}`);
    }
    const out: KubeObject[] = [];
    for (const key of keys) {
      try {
        out.push(...lister.byIndex(PV_CLAIM_INDEX, key));
      } catch {
        out.push(
          ...lister.list().filter((pv) => {
            const ref = rec(rec(pv.spec).claimRef);
            return `${str(ref.namespace)}/${str(ref.name)}` === key;
          }),
        );
      }
    }
    return out;
  }
}
