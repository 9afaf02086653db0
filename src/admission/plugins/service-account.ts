/**
 * ServiceAccount: every new pod runs as a service account that exists. A
 * pod naming none gets `default`; one naming an account that is not there
 * (even `default`) is refused; the account's image pull secrets are copied
 * to a pod that has none; and, unless `automountServiceAccountToken` says
 * no (the pod's word before the account's), the projected token volume is
 * added and mounted read-only in every init and regular container that has
 * nothing at the mount path (ephemeral containers are never touched). A
 * pod that already has an `<word>-api-access-…` volume keeps it and its
 * containers mount that one. Mirror pods are not changed but may not name
 * an account, a secret or a token projection. Accounts annotated
 * `<prefix>enforce-mountable-secrets: "true"` limit the secrets the pod's
 * containers (and, on the `ephemeralcontainers` subresource, its ephemeral
 * containers) may use to the account's `secrets`. As the real plugin does,
 * an account missing from the cache is read live — `default` up to ten
 * times, 100–200 ms apart, since its controller may be creating it. Before
 * that, while the server's own serviceaccount controller has not made its
 * first pass (the sandbox starts its controllers after the first screen),
 * a missing `default` is waited for, up to 15 s (decision 0073).
 */

import type { KubeObject } from '../../api/meta';
import { randomSuffix } from '../../machinery/ids';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionPluginDeps } from '../types';
import { admissionForbidden } from './support/errors';
import { envFromSecretName, envSecretName, podSecretNames } from './support/pod-secrets';
import {
  clonePod,
  podSpecOf,
  type ContainerShape,
  type PodShape,
  type PodSpecShape,
} from './support/pod-shape';
import { tokenMountPath, tokenVolume, tokenVolumeMount, tokenVolumePrefix } from './support/token-volume';

const defaultAccount = 'default';
/** Live lookups of `default` before giving up (the real plugin's count). */
const defaultAccountAttempts = 10;
/** The longest a missing `default` waits for the serviceaccount controller's first pass (0073). */
const firstPassWaitMs = 15_000;

/** Resolves when `done` does or after `ms`, whichever is first, leaving no timer behind. */
async function atMost(done: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

interface NameRef {
  name?: string;
}

interface ServiceAccountShape extends KubeObject {
  automountServiceAccountToken?: boolean | null;
  imagePullSecrets?: NameRef[] | null;
  secrets?: NameRef[] | null;
}

export interface ServiceAccountPluginOptions {
  /** Waits between live lookups of a missing account (tests pass a no-op). */
  sleep?: (ms: number) => Promise<void>;
  /** The token volume's 5-character suffix (random). */
  suffix?: () => string;
  /** The longest wait for the serviceaccount controller's first pass (15 s). */
  firstPassWaitMs?: number;
}

type Json = Record<string, unknown>;

function list(value: unknown): Json[] {
  return Array.isArray(value)
    ? value.filter((v): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v))
    : [];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The real plugin handles pods and their `ephemeralcontainers` subresource; nothing else. */
function ignored(a: AdmissionAttributes): boolean {
  if (a.group !== '' || a.resource !== 'pods') return true;
  if (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') return true;
  return a.object === undefined || (a.object.kind !== undefined && a.object.kind !== 'Pod');
}

/** The pod's choice first, then the account's; mounted unless one of them says no. */
function shouldAutomount(account: ServiceAccountShape, spec: PodSpecShape): boolean {
  if (typeof spec['automountServiceAccountToken'] === 'boolean') return spec['automountServiceAccountToken'];
  if (typeof account.automountServiceAccountToken === 'boolean') return account.automountServiceAccountToken;
  return true;
}

/** Go's strconv.ParseBool, false for anything it refuses. */
function parseBool(value: string | undefined): boolean {
  return value !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

function names(refs: NameRef[] | null | undefined): Set<string> {
  return new Set((refs ?? []).map((r) => str(r?.name)));
}

export function serviceAccountPlugin(
  deps: AdmissionPluginDeps,
  options: ServiceAccountPluginOptions = {},
): AdmissionPlugin {
  const { profile } = deps;
  const lister = deps.lister('', 'serviceaccounts');
  const sleep = options.sleep ?? wait;
  const suffix = options.suffix ?? (() => randomSuffix(5));
  const mirrorAnnotation = profile.prefixed('config.mirror');
  const enforceAnnotation = profile.prefixed('enforce-mountable-secrets');
  const volumePrefix = `${tokenVolumePrefix(profile)}-`;
  const mountPath = tokenMountPath(profile);

  /** The account from the cache, else read live; throws the real 403 when it does not exist. */
  async function account(a: AdmissionAttributes, name: string): Promise<ServiceAccountShape> {
    await deps.listersSynced();
    const cached = lister.get(a.namespace, name);
    if (cached !== undefined) return cached as ServiceAccountShape;
    if (name === defaultAccount && deps.defaultServiceAccounts !== undefined)
      await atMost(deps.defaultServiceAccounts(), options.firstPassWaitMs ?? firstPassWaitMs);
    const attempts = name === defaultAccount ? defaultAccountAttempts : 1;
    const interval = 100 + Math.floor(Math.random() * 100);
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await sleep(interval);
      const live = await deps.client.get('', 'serviceaccounts', a.namespace, name);
      if (live !== undefined) return live as ServiceAccountShape;
    }
    throw admissionForbidden(
      a,
      `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`,
    );
  }

  function isMirror(pod: KubeObject): boolean {
    return pod.metadata?.annotations?.[mirrorAnnotation] !== undefined;
  }

  function enforcesMountableSecrets(sa: ServiceAccountShape): boolean {
    return parseBool(sa.metadata?.annotations?.[enforceAnnotation]);
  }

  /** Adds the token volume (unless the pod has one) and its mount to every container that lacks one at the path. */
  function mountToken(spec: PodSpecShape): void {
    const volumes = list(spec['volumes']);
    const existing = volumes.find((v) => str(v['name']).startsWith(volumePrefix));
    const volumeName = existing !== undefined ? str(existing['name']) : `${volumePrefix}${suffix()}`;
    let needsVolume = false;
    for (const field of ['initContainers', 'containers'] as const) {
      for (const c of list(spec[field]) as ContainerShape[]) {
        const mounts = list(c['volumeMounts']);
        if (mounts.some((m) => m['mountPath'] === mountPath)) continue;
        c['volumeMounts'] = [...mounts, tokenVolumeMount(profile, volumeName)];
        needsVolume = true;
      }
    }
    if (existing === undefined && needsVolume)
      spec['volumes'] = [...volumes, tokenVolume(profile, volumeName)];
  }

  /** The first secret a container uses that the account does not list, as the real message. */
  function unlistedSecret(
    spec: PodSpecShape,
    fields: readonly ('initContainers' | 'containers' | 'ephemeralContainers')[],
    sa: ServiceAccountShape,
  ): string | undefined {
    const mountable = names(sa.secrets);
    const accountName = sa.metadata?.name ?? '';
    const what = {
      initContainers: 'init container',
      containers: 'container',
      ephemeralContainers: 'ephemeral container',
    };
    for (const field of fields) {
      for (const c of list(spec[field])) {
        const label = `${what[field]} ${str(c['name'])}`;
        for (const env of list(c['env'])) {
          const secret = envSecretName(env);
          if (secret !== undefined && !mountable.has(secret))
            return `${label} with envVar ${str(env['name'])} referencing secret.secretName="${secret}" is not allowed because service account ${accountName} does not reference that secret`;
        }
        for (const from of list(c['envFrom'])) {
          const secret = envFromSecretName(from);
          if (secret !== undefined && !mountable.has(secret))
            return `${label} with envFrom referencing secret.secretName="${secret}" is not allowed because service account ${accountName} does not reference that secret`;
        }
      }
    }
    return undefined;
  }

  /** The real `limitSecretReferences`: secret volumes, container environments, then image pull secrets. */
  function limitSecretReferences(spec: PodSpecShape, sa: ServiceAccountShape): string | undefined {
    const mountable = names(sa.secrets);
    const accountName = sa.metadata?.name ?? '';
    for (const volume of list(spec['volumes'])) {
      const secret = volume['secret'];
      if (secret === null || typeof secret !== 'object') continue;
      const secretName = str((secret as Json)['secretName']);
      if (!mountable.has(secretName))
        return `volume with secret.secretName="${secretName}" is not allowed because service account ${accountName} does not reference that secret`;
    }
    const fromContainers = unlistedSecret(spec, ['initContainers', 'containers'], sa);
    if (fromContainers !== undefined) return fromContainers;
    const pullable = names(sa.imagePullSecrets);
    const pulls = list(spec['imagePullSecrets']);
    for (let i = 0; i < pulls.length; i++) {
      const name = str(pulls[i]?.['name']);
      if (!pullable.has(name))
        return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${accountName} does not reference that imagePullSecret`;
    }
    return undefined;
  }

  async function validatePod(a: AdmissionAttributes, pod: PodShape): Promise<void> {
    const spec = podSpecOf(pod);
    const accountName = str(spec['serviceAccountName']);
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') {
      if (accountName === '')
        throw admissionForbidden(
          a,
          `no service account specified for pod ${a.namespace}/${pod.metadata?.name ?? ''}`,
        );
      const sa = await account(a, accountName);
      if (!enforcesMountableSecrets(sa)) return;
      const why = unlistedSecret(spec, ['ephemeralContainers'], sa);
      // The real plugin returns this one as a plain error (a 500); bad input is never a 5xx here, so it is the
      // 403 the same refusal gets on create.
      if (why !== undefined) throw admissionForbidden(a, why);
      return;
    }
    if (a.operation !== 'CREATE') return;
    if (isMirror(pod)) {
      if (accountName !== '') throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
      if (podSecretNames(spec).length > 0)
        throw admissionForbidden(a, 'a mirror pod may not reference secrets');
      for (const volume of list(spec['volumes'])) {
        const sources = list((volume['projected'] as Json | undefined)?.['sources']);
        if (sources.some((s) => s['serviceAccountToken'] !== undefined && s['serviceAccountToken'] !== null))
          throw admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
      }
      return;
    }
    if (accountName === '')
      throw admissionForbidden(
        a,
        `no service account specified for pod ${a.namespace}/${pod.metadata?.name ?? ''}`,
      );
    const sa = await account(a, accountName);
    if (!enforcesMountableSecrets(sa)) return;
    const why = limitSecretReferences(spec, sa);
    if (why !== undefined) throw admissionForbidden(a, why);
  }

  async function admitPod(a: AdmissionAttributes, original: KubeObject): Promise<KubeObject | undefined> {
    if (isMirror(original)) {
      await validatePod(a, original);
      return undefined;
    }
    const pod = clonePod(original);
    const spec = pod.spec;
    if (str(spec['serviceAccountName']) === '') {
      spec['serviceAccountName'] = defaultAccount;
      // The v1 form carries the deprecated alias too.
      spec['serviceAccount'] = defaultAccount;
    }
    const sa = await account(a, str(spec['serviceAccountName']));
    if (shouldAutomount(sa, spec)) mountToken(spec);
    if (list(spec['imagePullSecrets']).length === 0) {
      const pulls = (sa.imagePullSecrets ?? []).map((r) => ({ name: str(r?.name) }));
      if (pulls.length > 0) spec['imagePullSecrets'] = pulls;
    }
    await validatePod(a, pod);
    return JSON.stringify(pod) === JSON.stringify(original) ? undefined : pod;
  }

  return {
    name: 'ServiceAccount',
    operations: ['CREATE', 'UPDATE'],
    async admit(a) {
      if (ignored(a) || a.operation !== 'CREATE' || a.object === undefined) return undefined;
      return admitPod(a, a.object);
    },
    async validate(a) {
      if (ignored(a) || a.object === undefined) return;
      await validatePod(a, a.object as PodShape);
    },
  };
}

export const serviceAccount = (deps: AdmissionPluginDeps): AdmissionPlugin => serviceAccountPlugin(deps);
