/**
 * What a mirror pod may not reference (NodeRestriction): a node agent
 * creates mirror pods for static pods from its own files, and must not use
 * them to reach objects it could not read otherwise — service accounts,
 * secrets, config maps, persistent volume claims, cluster trust bundles.
 * The walk covers every container (init and ephemeral too) and volume.
 */

type Json = Record<string, unknown>;

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];
}

function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function containers(spec: Json): Json[] {
  return [...objects(spec.initContainers), ...objects(spec.containers), ...objects(spec.ephemeralContainers)];
}

/** Volume sources that name a secret (directly or through a secret reference). */
const secretVolumeFields: Record<string, string> = {
  secret: 'secretName',
  azureFile: 'secretName',
  cephfs: 'secretRef',
  cinder: 'secretRef',
  flexVolume: 'secretRef',
  rbd: 'secretRef',
  scaleIO: 'secretRef',
  iscsi: 'secretRef',
  storageos: 'secretRef',
  csi: 'nodePublishSecretRef',
};

export function referencesSecrets(spec: Json): boolean {
  if (objects(spec.imagePullSecrets).length > 0) return true;
  for (const c of containers(spec)) {
    if (objects(c.envFrom).some((e) => obj(e.secretRef) !== undefined)) return true;
    if (objects(c.env).some((e) => obj(obj(e.valueFrom)?.secretKeyRef) !== undefined)) return true;
  }
  for (const v of objects(spec.volumes)) {
    for (const [source, field] of Object.entries(secretVolumeFields)) {
      const s = obj(v[source]);
      if (s !== undefined && s[field] !== undefined && s[field] !== null) return true;
    }
    if (objects(obj(v.projected)?.sources).some((s) => obj(s.secret) !== undefined)) return true;
  }
  return false;
}

export function referencesConfigMaps(spec: Json): boolean {
  for (const c of containers(spec)) {
    if (objects(c.envFrom).some((e) => obj(e.configMapRef) !== undefined)) return true;
    if (objects(c.env).some((e) => obj(obj(e.valueFrom)?.configMapKeyRef) !== undefined)) return true;
  }
  for (const v of objects(spec.volumes)) {
    if (obj(v.configMap) !== undefined) return true;
    if (objects(obj(v.projected)?.sources).some((s) => obj(s.configMap) !== undefined)) return true;
  }
  return false;
}

export function referencesClusterTrustBundles(spec: Json): boolean {
  return objects(spec.volumes).some((v) =>
    objects(obj(v.projected)?.sources).some((s) => obj(s.clusterTrustBundle) !== undefined),
  );
}

export function referencesClaims(spec: Json): boolean {
  return objects(spec.volumes).some((v) => obj(v.persistentVolumeClaim) !== undefined);
}
