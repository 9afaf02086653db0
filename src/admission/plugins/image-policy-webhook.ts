/**
 * ImagePolicyWebhook (off by default): asks a backend whether a pod's
 * images may run, as the real plugin does. Its configuration (`imagePolicy`:
 * `<word>ConfigFile` — `kubeConfigFile` in the kubernetes profile — naming
 * a kubeconfig for the backend, `allowTTL`/`denyTTL` seconds to cache
 * answers, `retryBackoff` milliseconds, `defaultAllow` for when the backend
 * fails). For pods (and their `ephemeralcontainers`) it POSTs an
 * `ImageReview` (`imagepolicy.<suffix>/v1alpha1`) with every container's
 * image, the pod annotations matching `*.image-policy.<suffix>/*`, and the
 * namespace; a denial refuses with 403 (`image policy webhook backend denied
 * one or more images: <reason>`), a failing backend refuses too unless
 * `defaultAllow`, which admits, marks the pod
 * `alpha.image-policy.<suffix>/failed-open: "true"` and records the
 * fail-open audit annotation.
 */

import { yamlLibrary } from '../../machinery/decode/yaml-library';
import { resolveAgainstKubeconfig } from '../../machinery/kubeconfig-files';
import type { KubeObject } from '../../api/meta';
import { forbidden } from '../../machinery/errors';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';
import { WebhookCallError, type WebhookCredentials, type WebhookTransport } from '../webhook-transport';
import { userCredentials, type KubeconfigUser } from '../webhook/credentials';

interface ImagePolicyConfig {
  configFile: string;
  allowTTLMs: number;
  denyTTLMs: number;
  retryBackoffMs: number;
  defaultAllow: boolean;
}

const maxTTLSeconds = 30 * 60;

/** Reads `imagePolicy` with the real defaults (allow 5 min, deny 30 s, backoff 500 ms); throws when it must not start. */
export function parseImagePolicyConfig(raw: unknown, word: string): ImagePolicyConfig {
  const fileKey = `${word === 'orch' ? 'orch' : 'kube'}ConfigFile`;
  const section = (raw as { imagePolicy?: Record<string, unknown> } | undefined)?.imagePolicy;
  if (section === undefined || section === null)
    throw new Error('ImagePolicyWebhook: no imagePolicy configuration provided');
  const file = section[fileKey];
  if (typeof file !== 'string' || file === '')
    throw new Error(`ImagePolicyWebhook: imagePolicy.${fileKey} is required`);
  const seconds = (key: string, fallback: number): number => {
    const v = section[key];
    if (v === undefined || v === 0) return fallback;
    if (typeof v !== 'number' || v < 0 || v > maxTTLSeconds)
      throw new Error(`ImagePolicyWebhook: ${key} valid value is between 0 and 30m0s, got ${String(v)}`);
    return v;
  };
  const backoff = section.retryBackoff;
  let retryBackoffMs = 500;
  if (backoff !== undefined && backoff !== 0) {
    if (typeof backoff !== 'number' || backoff < 0 || backoff > 5 * 60 * 1000)
      throw new Error(
        `ImagePolicyWebhook: retryBackoff valid value is between 0 and 5m0s, got ${String(backoff)}`,
      );
    retryBackoffMs = backoff;
  }
  return {
    configFile: file,
    allowTTLMs: seconds('allowTTL', 300) * 1000,
    denyTTLMs: seconds('denyTTL', 30) * 1000,
    retryBackoffMs,
    defaultAllow: section.defaultAllow === true,
  };
}

export interface BackendClient {
  url: string;
  caBundle?: string;
  credentials?: WebhookCredentials;
}

interface Kubeconfig {
  'current-context'?: string;
  contexts?: { name?: string; context?: { cluster?: string; user?: string } }[];
  clusters?: {
    name?: string;
    cluster?: { server?: string; 'certificate-authority-data'?: string; 'certificate-authority'?: string };
  }[];
  users?: { name?: string; user?: KubeconfigUser }[];
}

/** Reads the backend's address and the credentials from a kubeconfig (its current context, else its first cluster and user). */
export function readBackendKubeconfig(
  text: string,
  loadFile: (path: string) => string,
  kubeconfigPath: string,
): BackendClient {
  // Files a kubeconfig names are relative to the kubeconfig's own directory, as client-go reads them.
  const load = (ref: string) => loadFile(resolveAgainstKubeconfig(kubeconfigPath, ref));
  // Loaded by the host before the chain is built when plugins have configurations (the browser has no files).
  const kc = (yamlLibrary.get().parse(text) ?? {}) as Kubeconfig;
  const ctx = kc.contexts?.find((c) => c.name === kc['current-context'])?.context;
  const cluster = (kc.clusters?.find((c) => c.name === ctx?.cluster) ?? kc.clusters?.[0])?.cluster;
  const user = (kc.users?.find((u) => u.name === ctx?.user) ?? kc.users?.[0])?.user;
  if (cluster?.server === undefined || cluster.server === '')
    throw new Error('ImagePolicyWebhook: the kubeconfig names no cluster server');
  const b64 = (s: string) => btoa(s);
  const caBundle =
    cluster['certificate-authority-data'] ??
    (cluster['certificate-authority'] !== undefined
      ? b64(load(cluster['certificate-authority']))
      : undefined);
  const credentials = userCredentials(user ?? {}, load);
  return {
    url: cluster.server,
    ...(caBundle !== undefined ? { caBundle } : {}),
    ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
  };
}

interface ReviewStatus {
  allowed?: boolean;
  reason?: string;
  auditAnnotations?: Record<string, string>;
}

interface CacheEntry {
  status: ReviewStatus;
  expires: number;
}

const callTimeoutMs = 30_000;
const cacheSize = 1024;
const attempts = 5;

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** One review, retried with exponential backoff on answers worth retrying (no answer, 429, 5xx). */
async function postReview(
  transport: WebhookTransport,
  backend: BackendClient,
  body: string,
  backoffMs: number,
): Promise<ReviewStatus> {
  let delay = backoffMs;
  for (let attempt = 1; ; attempt++) {
    let failure: Error;
    try {
      const result = await transport.call({
        clientConfig: {
          url: backend.url,
          ...(backend.caBundle !== undefined ? { caBundle: backend.caBundle } : {}),
        },
        body,
        timeoutMs: callTimeoutMs,
        ...(backend.credentials !== undefined ? { credentials: backend.credentials } : {}),
      });
      if (result.status >= 200 && result.status < 300) {
        const review = JSON.parse(result.body) as { status?: ReviewStatus };
        return review.status ?? {};
      }
      failure = new Error(`Error contacting webhook: ${result.status}`);
      if (result.status !== 429 && result.status < 500) throw failure;
    } catch (e) {
      if (!(e instanceof WebhookCallError) || attempt >= attempts) throw e;
      failure = e;
    }
    if (attempt >= attempts) throw failure;
    await sleep(delay);
    delay = Math.ceil(delay * 1.5);
  }
}

interface ContainerShape {
  image?: string;
}

function reviewContainers(a: AdmissionAttributes, pod: KubeObject): { image: string }[] {
  const spec = (pod.spec ?? {}) as {
    containers?: ContainerShape[];
    initContainers?: ContainerShape[];
    ephemeralContainers?: ContainerShape[];
  };
  const list =
    a.subresource === 'ephemeralcontainers'
      ? (spec.ephemeralContainers ?? [])
      : [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  return list.map((c) => ({ image: c.image ?? '' }));
}

export const imagePolicyWebhook: AdmissionPluginFactory = (deps) => {
  const config = parseImagePolicyConfig(deps.config, deps.profile.word);
  const backend = readBackendKubeconfig(
    deps.loadFile(config.configFile),
    (p) => deps.loadFile(p),
    config.configFile,
  );
  const reviewVersion = `imagepolicy.${deps.profile.groupSuffix}/v1alpha1`;
  const annotationSuffix = `.image-policy.${deps.profile.groupSuffix}/`;
  const auditPrefix = `imagepolicywebhook.image-policy.${deps.profile.groupSuffix}/`;
  const failedOpenAnnotation = `alpha.image-policy.${deps.profile.groupSuffix}/failed-open`;
  const cache = new Map<string, CacheEntry>();

  const matchingAnnotations = (pod: KubeObject): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(pod.metadata?.annotations ?? {}))
      if (k.includes(annotationSuffix)) out[k] = v;
    return out;
  };

  type Outcome = { status: ReviewStatus } | { failure: string };
  /** Backend failures seen in the mutating pass, by request and review, so the validating pass does not ask again. */
  const failedEarlier = new Map<string, string>();

  function reviewSpec(a: AdmissionAttributes, pod: KubeObject) {
    const annotations = matchingAnnotations(pod);
    return {
      containers: reviewContainers(a, pod),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      namespace: a.namespace,
    };
  }

  /** The cached answer for this review, or the backend's (cached by TTL), or why the backend failed. */
  async function review(spec: ReturnType<typeof reviewSpec>, key: string): Promise<Outcome> {
    const now = deps.now().getTime();
    const hit = cache.get(key);
    if (hit !== undefined && hit.expires > now) return { status: hit.status };
    const body = JSON.stringify({
      apiVersion: reviewVersion,
      kind: 'ImageReview',
      metadata: { creationTimestamp: null },
      spec,
      status: { allowed: false },
    });
    let status: ReviewStatus;
    try {
      status = await postReview(deps.transport, backend, body, config.retryBackoffMs);
    } catch (e) {
      return { failure: e instanceof Error ? e.message : String(e) };
    }
    cache.set(key, {
      status,
      expires: now + (status.allowed === true ? config.allowTTLMs : config.denyTTLMs),
    });
    // Bounded as the real LRU-expire cache is; the oldest entry goes first.
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
    return { status };
  }

  const handles = (a: AdmissionAttributes): boolean =>
    a.group === '' &&
    a.resource === 'pods' &&
    a.object !== undefined &&
    (a.subresource === '' || a.subresource === 'ephemeralcontainers');

  return {
    name: 'ImagePolicyWebhook',
    operations: ['CREATE', 'UPDATE'],
    /**
     * Failing open marks the pod itself (`alpha.image-policy.<suffix>/failed-open: "true"`), which the
     * real plugin does from its validating half; here objects change only in the mutating pass, so with
     * `defaultAllow` the review is asked for here (its answer cached for the validating pass, which
     * decides) and a failure is remembered rather than asked again.
     */
    async admit(a) {
      if (!config.defaultAllow || !handles(a) || a.object === undefined) return undefined;
      const spec = reviewSpec(a, a.object);
      const key = JSON.stringify(spec);
      const outcome = await review(spec, key);
      if (!('failure' in outcome)) return undefined;
      const pod = structuredClone(a.object);
      const metadata = (pod.metadata ??= {});
      metadata.annotations = { ...(metadata.annotations ?? {}), [failedOpenAnnotation]: 'true' };
      // Keyed by the review the validating pass will build, the new annotation included.
      failedEarlier.set(`${a.uid ?? ''}|${JSON.stringify(reviewSpec(a, pod))}`, outcome.failure);
      if (failedEarlier.size > cacheSize) failedEarlier.delete(failedEarlier.keys().next().value as string);
      return pod;
    },
    async validate(a) {
      if (!handles(a) || a.object === undefined) return;
      const spec = reviewSpec(a, a.object);
      const key = JSON.stringify(spec);
      const earlier = `${a.uid ?? ''}|${key}`;
      const remembered = failedEarlier.get(earlier);
      failedEarlier.delete(earlier);
      const outcome = remembered !== undefined ? { failure: remembered } : await review(spec, key);
      if ('failure' in outcome) {
        if (config.defaultAllow) {
          a.annotations?.add(`${auditPrefix}failed-open`, 'true');
          return;
        }
        throw forbidden({ group: '', resource: 'pods' }, a.name, outcome.failure);
      }
      const status = outcome.status;
      for (const [k, v] of Object.entries(status.auditAnnotations ?? {}))
        a.annotations?.add(`${auditPrefix}${k}`, v);
      if (status.allowed === true) return;
      const reason = status.reason ?? '';
      throw forbidden(
        { group: '', resource: 'pods' },
        a.name,
        reason !== ''
          ? `image policy webhook backend denied one or more images: ${reason}`
          : 'one or more images rejected by webhook backend',
      );
    },
  };
};
