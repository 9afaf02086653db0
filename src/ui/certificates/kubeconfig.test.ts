import { describe, expect, it } from 'vitest';
import { decodeBase64Text } from '../../machinery/base64-text';
import {
  certificateCommands,
  createTokenCommand,
  fileBase,
  kubeconfigCertificateUser,
  nodeHostCsrFlow,
} from './kubeconfig';

const target = { url: 'https://127.0.0.1:6443', kubeconfig: './orch.kubeconfig' };

describe('kubectl instructions', () => {
  it('embeds certificate and key as base64 data in the kubeconfig user entry', () => {
    const text = kubeconfigCertificateUser('carol', 'CERT\n', 'KEY\n');
    const data = /client-certificate-data: (\S+)/.exec(text)?.[1] ?? '';
    const key = /client-key-data: (\S+)/.exec(text)?.[1] ?? '';
    expect(text.startsWith('users:\n- name: "carol"\n  user:\n')).toBe(true);
    expect(decodeBase64Text(data)).toBe('CERT\n');
    expect(decodeBase64Text(key)).toBe('KEY\n');
  });

  it("writes the files, trusts the browser's CA on the Node host, and checks who the user is", () => {
    const text = certificateCommands(target, 'system:node:n1', 'CERT', 'KEY', 'CA');
    expect(text).toContain("cat > browser-ca.crt <<'EOF'\nCA\nEOF");
    expect(text).toContain('npm run serve -- --client-ca-file browser-ca.crt --kubeconfig ./orch.kubeconfig');
    expect(text).toContain(
      'kubectl --kubeconfig ./orch.kubeconfig config set-credentials system:node:n1 --client-certificate=system-node-n1.crt --client-key=system-node-n1.key --embed-certs',
    );
    expect(text.endsWith('kubectl --kubeconfig ./orch.kubeconfig --user system:node:n1 auth whoami')).toBe(
      true,
    );
    expect(certificateCommands(target, 'carol', 'C', 'K', undefined)).not.toContain('client-ca-file');
  });

  it('spells the same flow with openssl and kubectl', () => {
    const text = nodeHostCsrFlow(target, 'certificates.orch.io/v1', {
      name: 'carol-1',
      user: 'carol',
      groups: ['dev'],
      signerName: 'orch.io/apiserver-client',
      usages: ['client auth'],
    });
    expect(text).toContain('-subj /O=dev/CN=carol');
    expect(text).toContain('  request: $(base64 -w0 < carol.csr)');
    expect(text).toContain('certificate approve carol-1');
  });

  it('makes kubectl create token with the same options', () => {
    expect(createTokenCommand(target, 'default', 'default', ['a', 'b c'], 600, 'web')).toBe(
      "kubectl --kubeconfig ./orch.kubeconfig create token default -n default --audience a --audience 'b c' --duration 600s --bound-object-kind Pod --bound-object-name web",
    );
    expect(fileBase('::')).toBe('user');
  });
});
