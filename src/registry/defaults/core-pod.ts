/**
 * Core v1 defaults of pods and everything a pod template holds: the pod
 * spec (restart and DNS policy, scheduler, grace period, security context),
 * containers (pull policy from the image tag, termination message), ports,
 * probes, volumes and their sources. `SetDefaults_Pod` (requests from
 * limits, service links, host-network ports) applies to Pods only, not to
 * the templates of workloads — as in the real server.
 */

import { imageTag } from './image';
import { child, items, maybe, num, ptr, str, type Defaulter, type Obj } from './helpers';

const fileMode0644 = 420;

function requestsFromLimits(container: Obj): void {
  const resources = maybe(container, 'resources');
  const limits = resources === undefined ? undefined : maybe(resources, 'limits');
  if (resources === undefined || limits === undefined) return;
  const requests = child(resources, 'requests');
  for (const [k, v] of Object.entries(limits)) if (!Object.hasOwn(requests, k)) requests[k] = v;
}

const pod: Defaulter = (obj) => {
  const spec = maybe(obj, 'spec') ?? child(obj, 'spec');
  for (const c of [...items(spec, 'containers'), ...items(spec, 'initContainers')]) requestsFromLimits(c);
  ptr(spec, 'enableServiceLinks', true);
  if (spec.hostNetwork === true) {
    for (const c of [...items(spec, 'containers'), ...items(spec, 'initContainers')]) {
      for (const p of items(c, 'ports'))
        if (p.hostPort === undefined || p.hostPort === null || p.hostPort === 0) p.hostPort = p.containerPort;
    }
  }
};

const podSpec: Defaulter = (spec) => {
  str(spec, 'dnsPolicy', 'ClusterFirst');
  str(spec, 'restartPolicy', 'Always');
  ptr(spec, 'securityContext', {});
  ptr(spec, 'terminationGracePeriodSeconds', 30);
  str(spec, 'schedulerName', 'default-scheduler');
  // Not a SetDefaults_ rule but the v1 conversion: the deprecated `serviceAccount` mirrors `serviceAccountName`
  // (and fills it when only the old field is set).
  const account = [spec.serviceAccountName, spec.serviceAccount].find(
    (v) => typeof v === 'string' && v !== '',
  );
  if (account !== undefined) {
    spec.serviceAccountName = account;
    spec.serviceAccount = account;
  }
};

const container: Defaulter = (c) => {
  if (c.imagePullPolicy === undefined || c.imagePullPolicy === null || c.imagePullPolicy === '') {
    c.imagePullPolicy =
      imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  }
  str(c, 'terminationMessagePath', '/dev/termination-log');
  str(c, 'terminationMessagePolicy', 'File');
  // Not a SetDefaults_ rule: ResourceRequirements is a value struct, so the real server always shows it, if only as {}.
  ptr(c, 'resources', {});
};

const probe: Defaulter = (p) => {
  num(p, 'timeoutSeconds', 1);
  num(p, 'periodSeconds', 10);
  num(p, 'successThreshold', 1);
  num(p, 'failureThreshold', 3);
};

/** Every field of a Volume but its name is a volume source. */
const volume: Defaulter = (v) => {
  const hasSource = Object.entries(v).some(
    ([k, value]) => k !== 'name' && value !== undefined && value !== null,
  );
  if (!hasSource) v.emptyDir = {};
};

const defaultMode: Defaulter = (source) => ptr(source, 'defaultMode', fileMode0644);

const rbd: Defaulter = (s) => {
  str(s, 'pool', 'rbd');
  str(s, 'user', 'admin');
  str(s, 'keyring', '/etc/ceph/keyring');
};

const iscsi: Defaulter = (s) => str(s, 'iscsiInterface', 'default');

const scaleIO: Defaulter = (s) => {
  str(s, 'storageMode', 'ThinProvisioned');
  str(s, 'fsType', 'xfs');
};

export const podDefaults: Record<string, Defaulter> = {
  'api.core.v1.Pod': pod,
  'api.core.v1.PodSpec': podSpec,
  'api.core.v1.Container': container,
  'api.core.v1.EphemeralContainer': container,
  'api.core.v1.ContainerPort': (p) => str(p, 'protocol', 'TCP'),
  'api.core.v1.Probe': probe,
  'api.core.v1.HTTPGetAction': (a) => {
    str(a, 'path', '/');
    str(a, 'scheme', 'HTTP');
  },
  'api.core.v1.ObjectFieldSelector': (s) => str(s, 'apiVersion', 'v1'),
  'api.core.v1.Volume': volume,
  'api.core.v1.SecretVolumeSource': defaultMode,
  'api.core.v1.ConfigMapVolumeSource': defaultMode,
  'api.core.v1.DownwardAPIVolumeSource': defaultMode,
  'api.core.v1.ProjectedVolumeSource': defaultMode,
  'api.core.v1.ServiceAccountTokenProjection': (p) => ptr(p, 'expirationSeconds', 3600),
  'api.core.v1.HostPathVolumeSource': (h) => ptr(h, 'type', ''),
  'api.core.v1.RBDVolumeSource': rbd,
  'api.core.v1.RBDPersistentVolumeSource': rbd,
  'api.core.v1.ISCSIVolumeSource': iscsi,
  'api.core.v1.ISCSIPersistentVolumeSource': iscsi,
  'api.core.v1.ScaleIOVolumeSource': scaleIO,
  'api.core.v1.ScaleIOPersistentVolumeSource': scaleIO,
  'api.core.v1.AzureDiskVolumeSource': (d) => {
    ptr(d, 'cachingMode', 'ReadWrite');
    ptr(d, 'kind', 'Shared');
    ptr(d, 'fsType', 'ext4');
    ptr(d, 'readOnly', false);
  },
  'api.core.v1.PersistentVolumeClaimSpec': (s) => ptr(s, 'volumeMode', 'Filesystem'),
};
