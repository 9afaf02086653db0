import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../machinery/naming';
import type { ExternalFetch } from './config';
import { AuthenticationRejected } from './rejection';
import { parseWebhookKubeconfig, tokenWebhookAuthenticator } from './token-webhook';
import { yamlLibrary } from '../../machinery/decode/yaml-library';

// The YAML library is loaded on first use; these call its synchronous users directly.
await yamlLibrary.load();

const caPEM = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
const kubeconfig = `
apiVersion: v1
kind: Config
clusters:
  - name: authn
    cluster:
      server: https://authn.example.test/authenticate
      certificate-authority-data: ${btoa(caPEM)}
users:
  - name: apiserver
    user:
      token: webhook-secret
contexts:
  - name: webhook
    context: { cluster: authn, user: apiserver }
current-context: webhook
`;

interface Call {
  body: Record<string, unknown>;
  auth: string | null;
  caPEM: string | undefined;
}

function webhook(
  reply: (review: Record<string, unknown>) => Response | Promise<Response>,
): ExternalFetch & { calls: Call[] } {
  const calls: Call[] = [];
  const f = (async (request: Request, options?: { caPEM?: string }) => {
    const body = (await request.json()) as Record<string, unknown>;
    calls.push({ body, auth: request.headers.get('authorization'), caPEM: options?.caPEM });
    return reply(body);
  }) as ExternalFetch & { calls: Call[] };
  f.calls = calls;
  return f;
}

const json = (value: unknown, status = 200): Response =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

const answer = (status: Record<string, unknown>) => (review: Record<string, unknown>) =>
  json({ apiVersion: review['apiVersion'], kind: 'TokenReview', status });

async function rejection(p: Promise<unknown>): Promise<AuthenticationRejected> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AuthenticationRejected);
  return e as AuthenticationRejected;
}

describe('token webhook authenticator', () => {
  it('parses the kubeconfig-format file', () => {
    expect(parseWebhookKubeconfig(kubeconfig)).toEqual({
      server: 'https://authn.example.test/authenticate',
      caPEM,
      token: 'webhook-secret',
    });
  });

  for (const [version, profile, group] of [
    ['v1beta1', 'orch', 'authentication.orch.io'],
    ['v1', 'orch', 'authentication.orch.io'],
    ['v1', 'kubernetes', 'authentication.k8s.io'],
  ] as const) {
    it(`sends a ${group}/${version} TokenReview and maps the user`, async () => {
      const fetcher = webhook(
        answer({
          authenticated: true,
          user: { username: 'jane', uid: '42', groups: ['dev'], extra: { scopes: ['a'] } },
        }),
      );
      const auth = tokenWebhookAuthenticator(
        { kubeconfig, ...(version === 'v1' ? { version } : {}) },
        { fetch: fetcher, profile: PROFILES[profile] },
      );
      expect(await auth.authenticateToken('tok')).toEqual({
        user: { username: 'jane', uid: '42', groups: ['dev'], extra: { scopes: ['a'] } },
        audiences: [],
      });
      expect(fetcher.calls[0]).toEqual({
        body: {
          kind: 'TokenReview',
          apiVersion: `${group}/${version}`,
          metadata: { creationTimestamp: null },
          spec: { token: 'tok' },
          status: { user: {} },
        },
        auth: 'Bearer webhook-secret',
        caPEM,
      });
    });
  }

  it('sends audiences and grants their intersection with the reply (or the API audiences)', async () => {
    const fetcher = webhook(
      answer({ authenticated: true, user: { username: 'jane' }, audiences: ['b', 'c'] }),
    );
    const auth = tokenWebhookAuthenticator(
      { kubeconfig },
      { fetch: fetcher, profile: PROFILES.orch, apiAudiences: ['a'] },
    );
    expect((await auth.authenticateToken('tok', ['a', 'b']))?.audiences).toEqual(['b']);
    expect((fetcher.calls[0]?.body['spec'] as Record<string, unknown>)['audiences']).toEqual(['a', 'b']);
    expect(await auth.authenticateToken('tok', ['x'])).toBeUndefined();
    const implicit = tokenWebhookAuthenticator(
      { kubeconfig },
      {
        fetch: webhook(answer({ authenticated: true, user: { username: 'j' } })),
        profile: PROFILES.orch,
        apiAudiences: ['a'],
      },
    );
    expect((await implicit.authenticateToken('tok', ['a', 'z']))?.audiences).toEqual(['a']);
  });

  it('reads the files the kubeconfig names relative to its own directory, as client-go does', () => {
    const keyPEM = '-----BEGIN PRIVATE KEY-----\nBBBB\n-----END PRIVATE KEY-----\n';
    const files: Record<string, string> = {
      '/etc/authn/ca.crt': caPEM,
      '/etc/authn/certs/client.crt': caPEM,
      '/etc/authn/certs/client.key': keyPEM,
      '/var/run/token': 'from-a-file\n',
    };
    const read = (path: string): string => {
      const text = files[path];
      if (text === undefined) throw new Error(`open ${path}: no such file or directory`);
      return text;
    };
    const withFiles = `
clusters:
  - name: authn
    cluster:
      server: https://authn.example.test/authenticate
      certificate-authority: ca.crt
users:
  - name: apiserver
    user:
      client-certificate: certs/client.crt
      client-key: certs/client.key
      tokenFile: /var/run/token
`;
    expect(parseWebhookKubeconfig(withFiles, { path: '/etc/authn/webhook.yaml', read })).toEqual({
      server: 'https://authn.example.test/authenticate',
      caPEM,
      clientCertificatePEM: caPEM,
      clientKeyPEM: keyPEM,
      token: 'from-a-file',
    });
    expect(() => parseWebhookKubeconfig(withFiles, { path: '/elsewhere/webhook.yaml', read })).toThrow(
      'invalid configuration: unable to read certificate-authority /elsewhere/ca.crt for cluster "authn" due to open /elsewhere/ca.crt: no such file or directory',
    );
    // Where there are no files (the browser), the error says so and names the inline form.
    expect(() => parseWebhookKubeconfig(withFiles)).toThrow(
      'certificate-authority: ca.crt: this host has no files to read; give the contents in certificate-authority-data instead',
    );
  });

  it('caches decisions for the TTL, per token and audiences', async () => {
    let t = 0;
    const fetcher = webhook((review) =>
      answer({
        authenticated: (review['spec'] as { token: string }).token === 'good',
        user: { username: 'jane' },
      })(review),
    );
    const auth = tokenWebhookAuthenticator(
      { kubeconfig },
      { fetch: fetcher, profile: PROFILES.orch, now: () => new Date(t) },
    );
    expect(await auth.authenticateToken('good')).toBeDefined();
    expect(await auth.authenticateToken('bad')).toBeUndefined();
    t = 119_000;
    expect(await auth.authenticateToken('good')).toBeDefined();
    expect(await auth.authenticateToken('bad')).toBeUndefined();
    expect(fetcher.calls).toHaveLength(2);
    t = 121_000;
    await auth.authenticateToken('good');
    expect(fetcher.calls).toHaveLength(3);
    // The key is the token and the audiences: the same token for other audiences asks again, then is cached.
    await auth.authenticateToken('good', ['other']);
    await auth.authenticateToken('good', ['other']);
    expect(fetcher.calls).toHaveLength(4);
    expect((fetcher.calls[3]?.body['spec'] as Record<string, unknown>)['audiences']).toEqual(['other']);
  });

  it('records status.error as the reason, returns a generic 401, and does not cache it', async () => {
    const fetcher = webhook(answer({ authenticated: false, error: 'token revoked' }));
    const auth = tokenWebhookAuthenticator({ kubeconfig }, { fetch: fetcher, profile: PROFILES.orch });
    const e = await rejection(auth.authenticateToken('tok'));
    expect(e.status).toMatchObject({ code: 401, message: 'Unauthorized' });
    expect(e.attempt).toEqual({ authenticator: 'webhook', result: 'rejected', reason: 'token revoked' });
    await rejection(auth.authenticateToken('tok'));
    expect(fetcher.calls).toHaveLength(2);
  });

  it('rejects a reply in another version', async () => {
    const fetcher = webhook(() =>
      json({
        apiVersion: 'authentication.orch.io/v1',
        kind: 'TokenReview',
        status: { authenticated: true, user: { username: 'x' } },
      }),
    );
    const auth = tokenWebhookAuthenticator({ kubeconfig }, { fetch: fetcher, profile: PROFILES.orch });
    expect((await rejection(auth.authenticateToken('tok'))).attempt).toEqual({
      authenticator: 'webhook',
      result: 'error',
      reason: 'converting (v1.TokenReview) to (v1beta1.TokenReview): unknown conversion',
    });
  });

  it('turns transport failures and error statuses into 401 with the reason, retrying 500s', async () => {
    const refused: ExternalFetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 10.0.0.1:443') });
    };
    const down = tokenWebhookAuthenticator({ kubeconfig }, { fetch: refused, profile: PROFILES.orch });
    const e = await rejection(down.authenticateToken('tok'));
    expect(e.code).toBe(401);
    expect(e.attempt.reason).toBe(
      'Post "https://authn.example.test/authenticate": fetch failed: connect ECONNREFUSED 10.0.0.1:443',
    );
    const failing = webhook(() => new Response('boom', { status: 500 }));
    const flaky = tokenWebhookAuthenticator(
      { kubeconfig },
      { fetch: failing, profile: PROFILES.orch, retry: { steps: 3, initialMs: 1, factor: 1 } },
    );
    expect((await rejection(flaky.authenticateToken('tok'))).attempt.reason).toBe(
      'an error on the server ("boom") has prevented the request from succeeding',
    );
    expect(failing.calls).toHaveLength(3);
  });
});
