/** ImagePolicyWebhook with a scripted transport: the review sent, caching by TTL, failing closed and open. */

import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../machinery/naming';
import { StatusError } from '../../machinery/errors';
import type { AdmissionAttributes } from '../types';
import { WebhookCallError, type WebhookCall, type WebhookCallResult } from '../webhook-transport';
import { imagePolicyWebhook, parseImagePolicyConfig, readBackendKubeconfig } from './image-policy-webhook';
import { fakeDeps, podAttributes, recordingAnnotations } from './support/fake-deps.test-support';
import { yamlLibrary } from '../../machinery/decode/yaml-library';

// The YAML library is loaded on first use; these call its synchronous users directly.
await yamlLibrary.load();

const kubeconfig = `
clusters:
- name: b
  cluster: {server: 'https://images.example:8443/review', certificate-authority-data: Q0E=}
users:
- name: u
  user: {token: secret}
contexts:
- name: c
  context: {cluster: b, user: u}
current-context: c
`;

function setup(answer: (call: WebhookCall) => Promise<WebhookCallResult>, defaultAllow: boolean) {
  const calls: WebhookCall[] = [];
  const clock = { ms: 0 };
  const deps = fakeDeps({
    profile: PROFILES.orch,
    now: () => new Date(clock.ms),
    config: {
      imagePolicy: { orchConfigFile: 'kc.yaml', allowTTL: 10, denyTTL: 5, retryBackoff: 1, defaultAllow },
    },
    loadFile: (path: string) => {
      if (path !== 'kc.yaml') throw new Error(`open ${path}: no such file or directory`);
      return kubeconfig;
    },
    transport: {
      call: (c: WebhookCall) => {
        calls.push(c);
        return answer(c);
      },
    },
  });
  return { plugin: imagePolicyWebhook(deps), calls, clock };
}

function create(image: string, annotations: Record<string, string> = {}): AdmissionAttributes {
  return podAttributes(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', annotations },
      spec: { containers: [{ name: 'c', image }], initContainers: [{ name: 'i', image: 'init' }] },
    },
    { namespace: 'ns', user: { username: 'u', groups: [] } },
  );
}

const reply = (status: unknown): Promise<WebhookCallResult> =>
  Promise.resolve({ status: 200, contentType: 'application/json', body: JSON.stringify({ status }) });

async function outcome(p: ReturnType<typeof setup>['plugin'], a: AdmissionAttributes): Promise<string> {
  try {
    await p.validate?.(a);
    return 'ok';
  } catch (e) {
    return e instanceof StatusError ? `${e.code} ${e.message}` : String(e);
  }
}

describe('ImagePolicyWebhook', () => {
  it('sends every image, the matching annotations and the namespace, with the kubeconfig credentials', async () => {
    const s = setup(() => reply({ allowed: true }), false);
    const a = create('nginx', { 'team.image-policy.orch.io/ticket': '42', other: 'x' });
    expect(await outcome(s.plugin, a)).toBe('ok');
    const call = s.calls[0] as WebhookCall;
    expect(call.clientConfig).toEqual({ url: 'https://images.example:8443/review', caBundle: 'Q0E=' });
    expect(call.credentials).toEqual({ token: 'secret' });
    expect(JSON.parse(call.body)).toMatchObject({
      apiVersion: 'imagepolicy.orch.io/v1alpha1',
      kind: 'ImageReview',
      spec: {
        containers: [{ image: 'nginx' }, { image: 'init' }],
        annotations: { 'team.image-policy.orch.io/ticket': '42' },
        namespace: 'ns',
      },
    });
  });

  it('caches a denial for denyTTL', async () => {
    const s = setup(() => reply({ allowed: false, reason: 'no' }), false);
    const denied = '403 pods "p" is forbidden: image policy webhook backend denied one or more images: no';
    expect(await outcome(s.plugin, create('bad'))).toBe(denied);
    s.clock.ms = 4000;
    expect(await outcome(s.plugin, create('bad'))).toBe(denied);
    expect(s.calls).toHaveLength(1);
    s.clock.ms = 6000;
    await outcome(s.plugin, create('bad'));
    expect(s.calls).toHaveLength(2);
  });

  it('words a denial without a reason as the real plugin', async () => {
    const s = setup(() => reply({ allowed: false }), false);
    expect(await outcome(s.plugin, create('bad'))).toBe(
      '403 pods "p" is forbidden: one or more images rejected by webhook backend',
    );
  });

  it('asks in the mutating pass only with defaultAllow, and the validating pass reuses the answer', async () => {
    const closed = setup(() => reply({ allowed: true }), false);
    expect(await closed.plugin.admit?.(create('x'))).toBeUndefined();
    expect(closed.calls).toHaveLength(0);
    const open = setup(() => reply({ allowed: false, reason: 'no' }), true);
    const a = create('x');
    expect(await open.plugin.admit?.(a)).toBeUndefined();
    expect(await outcome(open.plugin, a)).toContain('denied one or more images: no');
    expect(open.calls).toHaveLength(1);
  });

  it('fails closed after retrying, without defaultAllow', async () => {
    const s = setup(
      () => Promise.reject(new WebhookCallError('unreachable', 'dial tcp: connection refused')),
      false,
    );
    expect(await outcome(s.plugin, create('x'))).toBe(
      '403 pods "p" is forbidden: dial tcp: connection refused',
    );
    expect(s.calls).toHaveLength(5);
  });

  it('fails open with defaultAllow and records the audit annotation', async () => {
    const s = setup(() => Promise.resolve({ status: 500, contentType: null, body: '' }), true);
    const audit = recordingAnnotations();
    const a = { ...create('x'), uid: 'req-1', annotations: audit.annotations };
    const marked = await s.plugin.admit?.(a);
    expect(marked?.metadata?.annotations).toMatchObject({ 'alpha.image-policy.orch.io/failed-open': 'true' });
    expect(await outcome(s.plugin, { ...a, object: marked })).toBe('ok');
    expect(audit.seen.get('imagepolicywebhook.image-policy.orch.io/failed-open')).toBe('true');
    // The failing backend was asked once for the request (with its retries), not again by the validating pass.
    expect(s.calls).toHaveLength(5);
  });

  it('reads the configuration with the real defaults and checks its bounds', () => {
    expect(parseImagePolicyConfig({ imagePolicy: { orchConfigFile: 'f' } }, 'orch')).toEqual({
      configFile: 'f',
      allowTTLMs: 300_000,
      denyTTLMs: 30_000,
      retryBackoffMs: 500,
      defaultAllow: false,
    });
    expect(parseImagePolicyConfig({ imagePolicy: { kubeConfigFile: 'k' } }, 'kubernetes').configFile).toBe(
      'k',
    );
    expect(() =>
      parseImagePolicyConfig({ imagePolicy: { orchConfigFile: 'f', allowTTL: 3600 } }, 'orch'),
    ).toThrow(/allowTTL valid value is between 0 and 30m0s/);
    expect(() => readBackendKubeconfig('clusters: []', () => '', '/etc/kc.yaml')).toThrow(
      /no cluster server/,
    );
  });
});
