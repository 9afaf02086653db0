/**
 * The shapes of the workload objects the controllers read and write: only
 * the fields they use, each optional as the JSON may lack it (the server
 * defaults most of them, but a controller never trusts that).
 */

import type { KubeObject, ObjectMeta } from '../../api/meta';

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string | null;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface Container {
  name: string;
  image?: string;
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  [field: string]: unknown;
}

export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Record<string, unknown>;
  tolerations?: Toleration[];
  volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[];
  restartPolicy?: string;
  hostname?: string;
  subdomain?: string;
  activeDeadlineSeconds?: number;
  [field: string]: unknown;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

export interface ContainerStatus {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface PodStatus {
  phase?: string;
  conditions?: Condition[];
  containerStatuses?: ContainerStatus[];
  podIP?: string;
  podIPs?: { ip: string }[];
  hostIP?: string;
  startTime?: string;
  [field: string]: unknown;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: PodStatus;
}

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: Condition[];
}

export interface ReplicaSet extends KubeObject {
  spec?: ReplicaSetSpec;
  status?: ReplicaSetStatus;
}

export type IntOrString = number | string;

export interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
  strategy?: {
    type?: string;
    rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString };
  };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: Condition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  spec?: DeploymentSpec;
  status?: DeploymentStatus;
}

export interface ControllerRevision extends KubeObject {
  data?: Record<string, unknown>;
  revision?: number;
}
