/**
 * The Node host's command line as a user runs it (`npm run serve -- ...`,
 * here `tsx src/hosts/node/main.ts` directly): `--port 0` picks a free
 * port, one line with the HTTPS URL is printed when ready, `--kubeconfig`
 * writes a kubeconfig whose CA and admin token reach it, `--tls-cert-file`
 * serves the given certificate, `--insecure-http` plain HTTP, SIGTERM shuts
 * the server down cleanly, and bad flags fail as kube-apiserver fails
 * (`Error: <its message>`, exit code 1). The flag parser's messages and the
 * authentication flags (files read, passed as contents) are checked
 * directly on `parseHostArgs`.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { connect } from 'node:tls';
import { Agent } from 'undici';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FlagError, parseHostArgs } from '../src/hosts/node/args';
import { createTestCA, issueCertificate } from './support/pki';

function serve(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/main.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function firstLine(child: ChildProcess): Promise<string> {
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing: ${out}${err}`)));
  });
}

async function stop(child: ChildProcess): Promise<number | null> {
  // Already gone (it failed to start): nothing to wait for.
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

async function failure(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = serve(args);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, stderr };
}

/** A certificate (with its CA in the bundle) and key as files, for `--tls-cert-file`/`--tls-private-key-file`. */
async function tlsFiles(dir: string, cn: string): Promise<{ cert: string; key: string; caPEM: string }> {
  const ca = await createTestCA(`${cn}-ca`);
  const leaf = await issueCertificate(ca, { cn, dns: ['localhost'], ips: ['127.0.0.1'], server: true });
  const cert = join(dir, `${cn}.crt`);
  const key = join(dir, `${cn}.key`);
  writeFileSync(cert, leaf.certPEM + ca.certPEM);
  writeFileSync(key, leaf.keyPEM);
  return { cert, key, caPEM: ca.certPEM };
}

/** A port nobody listens on now (`--secure-port` cannot be 0, as on the real server). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Kubeconfig {
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data'?: string } }[];
  users: { name: string; user: { token?: string } }[];
  contexts: { name: string; context: { cluster: string; user: string } }[];
  'current-context': string;
}

it(
  'prints its HTTPS URL when ready, writes a kubeconfig whose CA and admin token reach it, and stops on SIGTERM',
  { timeout: 60_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-cli-'));
    const kubeconfig = join(dir, 'config');
    const child = serve([
      '--port',
      '0',
      '--profile',
      'kubernetes',
      '--kubeconfig',
      kubeconfig,
      '--compaction-interval',
      '30s',
    ]);
    const line = await firstLine(child);
    const url = /(https:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    expect(url, line).toBeDefined();
    const config = parse(readFileSync(kubeconfig, 'utf8')) as Kubeconfig;
    const cluster = config.clusters[0]?.cluster;
    expect(cluster?.server).toBe(url);
    expect(config['current-context']).toBe('admin');
    const admin = config.users.find((u) => u.name === 'admin');
    const token = admin?.user.token ?? '';
    expect(token.length).toBeGreaterThan(20);
    const ca = Buffer.from(cluster?.['certificate-authority-data'] ?? '', 'base64').toString('utf8');
    expect(ca).toContain('-----BEGIN CERTIFICATE-----');
    const dispatcher = new Agent({ connect: { ca } });
    try {
      const ns = await fetch(`${url}/api/v1/namespaces`, {
        headers: { authorization: `Bearer ${token}` },
        dispatcher: dispatcher as unknown as RequestInit['dispatcher'],
      });
      const body = (await ns.json()) as { items: { metadata: { name: string } }[] };
      expect(body.items.map((i) => i.metadata.name).sort()).toEqual([
        'default',
        'kube-node-lease',
        'kube-public',
        'kube-system',
      ]);
      // Without the CA the server is not trusted: HTTPS for real.
      await expect(fetch(`${url}/version`)).rejects.toThrow();
    } finally {
      await dispatcher.close();
    }
    expect(await stop(child)).toBe(0);
  },
);

it('serves the certificate --tls-cert-file names', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-cli-'));
  const files = await tlsFiles(dir, 'given-server');
  const kubeconfig = join(dir, 'config');
  const child = serve([
    '--secure-port',
    String(await freePort()),
    '--tls-cert-file',
    files.cert,
    '--tls-private-key-file',
    files.key,
    '--kubeconfig',
    kubeconfig,
  ]);
  try {
    const url = new URL(/(https:\/\/\S+:\d+)/.exec(await firstLine(child))?.[1] ?? '');
    const subject = await new Promise<string>((resolve, reject) => {
      const socket = connect(
        { host: '127.0.0.1', port: Number(url.port), ca: files.caPEM, servername: 'localhost' },
        () => {
          resolve(String(socket.getPeerCertificate().subject.CN));
          socket.end();
        },
      );
      socket.on('error', reject);
    });
    expect(subject).toBe('given-server');
    // The kubeconfig trusts the top of the given chain.
    const config = parse(readFileSync(kubeconfig, 'utf8')) as Kubeconfig;
    expect(
      Buffer.from(config.clusters[0]?.cluster['certificate-authority-data'] ?? '', 'base64').toString(),
    ).toBe(files.caPEM);
  } finally {
    expect(await stop(child)).toBe(0);
  }
});

it('--insecure-http serves plain HTTP (no TLS at all)', { timeout: 60_000 }, async () => {
  const child = serve(['--port', '0', '--insecure-http']);
  try {
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(await firstLine(child))?.[1];
    expect(url).toBeDefined();
    const version = await fetch(`${url}/version`);
    expect(version.status).toBe(200);
  } finally {
    expect(await stop(child)).toBe(0);
  }
});

it(
  'rejects bad flags as kube-apiserver does: Error: <message>, exit code 1',
  { timeout: 60_000 },
  async () => {
    const [profile, unknown, bool] = await Promise.all([
      failure(['--profile', 'nope']),
      failure(['--no-such-flag']),
      failure(['--anonymous-auth=maybe']),
    ]);
    expect(profile.code).toBe(1);
    expect(profile.stderr).toContain('Error: invalid argument "nope" for "--profile" flag');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Error: unknown flag: --no-such-flag');
    expect(bool.code).toBe(1);
    expect(bool.stderr).toContain(
      'Error: invalid argument "maybe" for "--anonymous-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
  },
);

describe('parseHostArgs', () => {
  const files: Record<string, string> = {
    '/etc/orch/ca.crt': 'CLIENT-CA',
    '/etc/orch/tokens.csv': 'tok,alice,1001,dev',
    '/etc/orch/sa1.pub': 'SA-KEY-1',
    '/etc/orch/sa2.pub': 'SA-KEY-2',
    '/etc/orch/oidc-ca.crt': 'OIDC-CA',
    '/etc/orch/webhook.yaml': 'WEBHOOK-KUBECONFIG',
    '/etc/orch/proxy-ca.crt': 'PROXY-CA',
  };
  const read = (path: string): string => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  };
  const parseArgs = (argv: string[], warn?: (m: string) => void) => parseHostArgs(argv, read, warn);
  const message = (argv: string[]): string => {
    try {
      parseArgs(argv);
    } catch (e) {
      expect(e).toBeInstanceOf(FlagError);
      return (e as Error).message;
    }
    throw new Error(`accepted: ${argv.join(' ')}`);
  };

  it('reads the files the authentication flags name and passes their contents', () => {
    const options = parseArgs([
      '--client-ca-file=/etc/orch/ca.crt',
      '--token-auth-file',
      '/etc/orch/tokens.csv',
      '--enable-bootstrap-token-auth',
      '--service-account-key-file=/etc/orch/sa1.pub',
      '--service-account-key-file=/etc/orch/sa2.pub',
      '--service-account-issuer=https://issuer.example',
      '--service-account-issuer=legacy',
      '--service-account-lookup=false',
      '--api-audiences=a,b',
      '--oidc-issuer-url=https://idp.example',
      '--oidc-client-id=orch',
      '--oidc-username-claim=email',
      '--oidc-username-prefix=-',
      '--oidc-groups-claim=groups',
      '--oidc-groups-prefix=oidc:',
      '--oidc-required-claim=hd=example.com',
      '--oidc-required-claim=tier=gold',
      '--oidc-ca-file=/etc/orch/oidc-ca.crt',
      '--oidc-signing-algs=RS256,ES256',
      '--authentication-token-webhook-config-file=/etc/orch/webhook.yaml',
      '--authentication-token-webhook-cache-ttl=30s',
      '--authentication-token-webhook-version=v1',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      '--requestheader-client-ca-file=/etc/orch/proxy-ca.crt',
      '--requestheader-allowed-names=front-proxy',
      '--anonymous-auth=false',
      '--authorization-mode=Node,RBAC',
    ]);
    expect(options.authorizationModes).toEqual(['Node', 'RBAC']);
    expect(options.authentication).toEqual({
      anonymous: false,
      clientCA: 'CLIENT-CA',
      tokenFile: 'tok,alice,1001,dev',
      bootstrapTokens: true,
      serviceAccount: {
        keys: ['SA-KEY-1', 'SA-KEY-2'],
        issuers: ['https://issuer.example', 'legacy'],
        lookup: false,
        apiAudiences: ['a', 'b'],
      },
      oidc: {
        issuerURL: 'https://idp.example',
        clientID: 'orch',
        usernameClaim: 'email',
        usernamePrefix: '-',
        groupsClaim: 'groups',
        groupsPrefix: 'oidc:',
        requiredClaims: { hd: 'example.com', tier: 'gold' },
        caPEM: 'OIDC-CA',
        signingAlgs: ['RS256', 'ES256'],
      },
      webhook: {
        kubeconfig: 'WEBHOOK-KUBECONFIG',
        // The files the kubeconfig names are read beside it.
        files: { path: '/etc/orch/webhook.yaml', read: expect.any(Function) },
        cacheTTLms: 30_000,
        version: 'v1',
      },
      requestHeader: {
        usernameHeaders: ['X-Remote-User'],
        groupHeaders: ['X-Remote-Group'],
        extraHeaderPrefixes: ['X-Remote-Extra-'],
        clientCA: 'PROXY-CA',
        allowedNames: ['front-proxy'],
      },
    });
  });

  it('leaves authentication to the core defaults when no flag names it', () => {
    const options = parseArgs(['--port', '0']);
    expect(options.authentication).toBeUndefined();
    expect(options.authorizationModes).toBeUndefined();
  });

  it('booleans never take the next word; --flag=false turns them off', () => {
    expect(parseArgs(['--enable-bootstrap-token-auth', '--port', '0']).authentication?.bootstrapTokens).toBe(
      true,
    );
    expect(parseArgs(['--anonymous-auth=f']).authentication?.anonymous).toBe(false);
  });

  it('AlwaysAllow turns anonymous access off, with the real warning', () => {
    const warnings: string[] = [];
    const options = parseArgs(['--authorization-mode=AlwaysAllow'], (m) => warnings.push(m));
    expect(options.authentication?.anonymous).toBe(false);
    expect(warnings[0]).toContain('AnonymousAuth is not allowed with the AlwaysAllow authorizer');
  });

  it('answers bad values with the real messages', () => {
    expect(message(['--secure-port=0'])).toBe(
      '--secure-port 0 must be between 1 and 65535, inclusive. It cannot be turned off with 0',
    );
    expect(message(['--secure-port=http'])).toBe(
      'invalid argument "http" for "--secure-port" flag: strconv.ParseInt: parsing "http": invalid syntax',
    );
    expect(message(['--bind-address=here'])).toBe(
      'invalid argument "here" for "--bind-address" flag: failed to parse IP: "here"',
    );
    expect(message(['--client-ca-file'])).toBe('flag needs an argument: --client-ca-file');
    expect(message(['--client-ca-file=/nope'])).toBe(
      'unable to load client CA provider: open /nope: no such file or directory',
    );
    expect(message(['--token-auth-file=/nope'])).toBe('open /nope: no such file or directory');
    expect(message(['--oidc-issuer-url=https://idp.example'])).toBe(
      'oidc-issuer-url and oidc-client-id should be specified together',
    );
    expect(message(['--oidc-issuer-url=http://idp.example', '--oidc-client-id=x'])).toBe(
      `'oidc-issuer-url' ("http://idp.example") has invalid scheme ("http"), require 'https'`,
    );
    expect(message(['--oidc-required-claim=hd'])).toBe(
      'invalid argument "hd" for "--oidc-required-claim" flag: malformed pair, expect string=string',
    );
    expect(message(['--authentication-token-webhook-cache-ttl=soon'])).toBe(
      'invalid argument "soon" for "--authentication-token-webhook-cache-ttl" flag: time: invalid duration "soon"',
    );
    expect(message(['--authentication-token-webhook-cache-ttl=2m30'])).toBe(
      'invalid argument "2m30" for "--authentication-token-webhook-cache-ttl" flag: time: missing unit in duration "2m30"',
    );
    expect(message(['--compaction-interval=0'])).toBe(
      'invalid argument "0" for "--compaction-interval" flag: must be at least 1s',
    );
    expect(message(['--authentication-token-webhook-version=v2'])).toBe(
      'unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"',
    );
    expect(message(['--authorization-mode=Magic'])).toBe('authorization-mode "Magic" is not a valid mode');
    expect(message(['--authorization-mode='])).toBe('at least one authorization-mode must be passed');
    expect(message(['--authorization-mode=RBAC,RBAC'])).toBe(
      'authorization-mode ["RBAC" "RBAC"] has mode specified more than once',
    );
    expect(message(['--service-account-issuer=a', '--service-account-issuer=a'])).toBe(
      'service-account-issuer "a" is already specified',
    );
    expect(message(['--requestheader-username-headers=X-Remote-User, '])).toBe(
      'empty value in "requestheader-username-headers"',
    );
    // Several problems at once print as Go's error aggregate does.
    expect(message(['--authorization-mode=Magic', '--oidc-client-id=x'])).toBe(
      '[authorization-mode "Magic" is not a valid mode, oidc-issuer-url and oidc-client-id should be specified together]',
    );
    expect(message(['stray'])).toBe('"kube-apiserver" does not take any arguments, got ["stray"]');
  });
});
