/**
 * `--authentication-token-webhook-config-file`: the host hands the core the kubeconfig's text and a reader
 * for the files it names (the core resolves them beside the kubeconfig's path), failing with Go's
 * `open <path>: <reason>` (issue 31).
 */

import { describe, expect, it } from 'vitest';
import { parseHostArgs } from './args';

const kubeconfig =
  'clusters:\n  - name: authn\n    cluster: { server: https://a.test, certificate-authority: ca.crt }\n';
const caPEM = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
const files: Record<string, string> = { '/etc/authn/webhook.yaml': kubeconfig, '/etc/authn/ca.crt': caPEM };
const read = (path: string): string => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
  return text;
};

describe('token webhook kubeconfig files', () => {
  it('passes the kubeconfig with its path and a reader of the files beside it', () => {
    const webhook = parseHostArgs(
      ['--authentication-token-webhook-config-file=/etc/authn/webhook.yaml'],
      read,
    ).authentication?.webhook;
    expect(webhook?.kubeconfig).toBe(kubeconfig);
    expect(webhook?.files?.path).toBe('/etc/authn/webhook.yaml');
    const readBeside = webhook?.files?.read ?? (() => '');
    expect(readBeside('/etc/authn/ca.crt')).toBe(caPEM);
    expect(() => readBeside('/etc/authn/client.key')).toThrow(
      'open /etc/authn/client.key: no such file or directory',
    );
  });
});
