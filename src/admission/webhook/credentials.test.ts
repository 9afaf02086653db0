import { describe, expect, it } from 'vitest';
import { credentialsResolver } from './credentials';
import { yamlLibrary } from '../../machinery/decode/yaml-library';

// The YAML library is loaded on first use; these call its synchronous users directly.
await yamlLibrary.load();

const kubeconfig = `
apiVersion: v1
kind: Config
users:
- name: webhook.ns.svc
  user: { token: exact-service }
- name: other.ns.svc:8443
  user: { token: service-with-port }
- name: hook.example.com:443
  user: { username: u, password: p }
- name: '*.example.org:443'
  user: { token: wildcard }
- name: '*'
  user: { client-certificate-data: Y2VydA==, client-key-data: a2V5 }
`;

describe('webhook credentials from the admission kubeconfig', () => {
  const resolver = credentialsResolver({ kubeConfigFile: '/etc/kubeconfig' }, (path) => {
    expect(path).toBe('/etc/kubeconfig');
    return kubeconfig;
  });

  it.each([
    [{ service: { namespace: 'ns', name: 'webhook', port: 443 } }, { token: 'exact-service' }],
    [{ service: { namespace: 'ns', name: 'other', port: 8443 } }, { token: 'service-with-port' }],
    [{ url: 'https://hook.example.com/x' }, { username: 'u', password: 'p' }],
    [{ url: 'https://a.b.example.org/x' }, { token: 'wildcard' }],
    [
      { url: 'https://hook.example.com:8443/x' },
      { clientCertificateData: 'Y2VydA==', clientKeyData: 'a2V5' },
    ],
  ])('%j → %j', (clientConfig, expected) => {
    expect(resolver.resolve(clientConfig)).toEqual(expected);
  });

  it("reads the files a user names relative to the kubeconfig's own directory", () => {
    const files: Record<string, string> = {
      'conf/kubeconfig':
        'users:\n- name: "*"\n  user: { tokenFile: secrets/token, client-certificate: /abs/c.crt }\n',
      'conf/secrets/token': 'from-file\n',
      '/abs/c.crt': 'cert',
    };
    const read = (path: string) => {
      const text = files[path];
      if (text === undefined) throw new Error(`open ${path}: no such file or directory`);
      return text;
    };
    expect(
      credentialsResolver({ kubeConfigFile: 'conf/kubeconfig' }, read).resolve({ url: 'https://x' }),
    ).toEqual({
      token: 'from-file',
      clientCertificateData: btoa('cert'),
    });
  });

  it('gives none without a kubeconfig', () => {
    expect(credentialsResolver(undefined, () => '').resolve({ url: 'https://x' })).toBeUndefined();
  });
});
