/**
 * `kubectl create secret generic|tls|docker-registry NAME`: data from
 * literals and files (base64-encoded), a TLS pair from `--cert`/`--key`,
 * or a `.dockerconfigjson` from the registry flags.
 */

import type { Command } from '../../command';
import { KubectlError } from '../../errors';
import { generator, meta, sortedMap, typedPath } from './generator';
import { readSourcesData, sourceFlags } from './sources';

export function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

const generic = generator({
  name: 'generic',
  short: 'Create a secret from a local file, directory, or literal value',
  flags: [...sourceFlags, { name: 'type', type: 'string' }],
  async build(ctx, name, namespace, enforce) {
    const data = await readSourcesData(ctx, `Secret "${name}"`);
    const type = ctx.flags.string('type');
    return {
      object: {
        kind: 'Secret',
        apiVersion: 'v1',
        metadata: meta(name, enforce ? namespace : undefined),
        ...(data.size > 0 ? { data: sortedMap([...data].map(([k, v]) => [k, base64(v)])) } : {}),
        ...(type !== '' ? { type } : {}),
      },
      path: typedPath('', 'v1', 'secrets', namespace),
    };
  },
});

const tls = generator({
  name: 'tls',
  short: 'Create a TLS secret',
  flags: [
    { name: 'cert', type: 'string' },
    { name: 'key', type: 'string' },
    { name: 'append-hash', type: 'bool', noOptDefVal: 'true' },
  ],
  required: ['cert', 'key'],
  async build(ctx, name, namespace, enforce) {
    const cert = await ctx.io.files.read(ctx.flags.string('cert'));
    if (cert === undefined)
      throw new KubectlError(`error: open ${ctx.flags.string('cert')}: no such file or directory`);
    const key = await ctx.io.files.read(ctx.flags.string('key'));
    if (key === undefined)
      throw new KubectlError(`error: open ${ctx.flags.string('key')}: no such file or directory`);
    return {
      object: {
        kind: 'Secret',
        apiVersion: 'v1',
        metadata: meta(name, enforce ? namespace : undefined),
        data: { 'tls.crt': base64(cert), 'tls.key': base64(key) },
        type: 'kubernetes.io/tls',
      },
      path: typedPath('', 'v1', 'secrets', namespace),
    };
  },
});

const dockerRegistry = generator({
  name: 'docker-registry',
  short: 'Create a secret for use with a Docker registry',
  flags: [
    { name: 'docker-username', type: 'string' },
    { name: 'docker-password', type: 'string' },
    { name: 'docker-email', type: 'string' },
    { name: 'docker-server', type: 'string', default: 'https://index.docker.io/v1/' },
    { name: 'from-file', type: 'stringSlice' },
    { name: 'append-hash', type: 'bool', noOptDefVal: 'true' },
  ],
  async build(ctx, name, namespace, enforce) {
    const user = ctx.flags.string('docker-username');
    const password = ctx.flags.string('docker-password');
    const email = ctx.flags.string('docker-email');
    const server = ctx.flags.string('docker-server');
    if (ctx.flags.strings('from-file').length === 0) {
      const missing = ['docker-username', 'docker-password'].filter((f) => !ctx.flags.changed.has(f));
      if (missing.length > 0)
        throw new KubectlError(
          `error: missing required flag(s): ${missing.map((m) => `"--${m}"`).join(', ')}`,
        );
    }
    const entry: Record<string, string> = { username: user, password };
    if (email !== '') entry['email'] = email;
    entry['auth'] = base64(`${user}:${password}`);
    const config = JSON.stringify({ auths: { [server]: entry } });
    return {
      object: {
        kind: 'Secret',
        apiVersion: 'v1',
        metadata: meta(name, enforce ? namespace : undefined),
        data: { '.dockerconfigjson': base64(config) },
        type: 'kubernetes.io/dockerconfigjson',
      },
      path: typedPath('', 'v1', 'secrets', namespace),
    };
  },
});

export const createSecret: Command = {
  name: 'secret',
  short: 'Create a secret using a specified subcommand',
  subcommands: [dockerRegistry, generic, tls],
};
