// Requests as curl and kubectl commands for the Node host.
import { describe, expect, it } from 'vitest';
import { curlCommand, kubectlCommand } from './commands';

const target = { url: 'http://127.0.0.1:6443', kubeconfig: './orch.kubeconfig' };

describe('commands for the Node host', () => {
  it('curl carries method, URL, headers and the body in a quoted here-document', () => {
    const command = curlCommand(
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps?fieldManager=me',
        headers: [
          ['accept', 'application/json'],
          ['content-type', 'application/json'],
          ['user-agent', 'x'],
        ],
        body: '{"a":"$HOME"}',
      },
      target,
    );
    expect(command).toBe(
      [
        "curl -sS -X POST 'http://127.0.0.1:6443/api/v1/namespaces/default/configmaps?fieldManager=me' \\",
        "  -H 'Accept: application/json' \\",
        "  -H 'Content-Type: application/json' \\",
        "  --data-binary @- <<'EOF'",
        '{"a":"$HOME"}',
        'EOF',
      ].join('\n'),
    );
    expect(curlCommand({ method: 'GET', path: '/api/v1/pods?watch=1', headers: [] }, target)).toContain(
      'curl -sSN',
    );
  });

  it('kubectl uses --raw verbs, server-side apply and typed patches', () => {
    expect(kubectlCommand({ method: 'GET', path: '/version', headers: [] }, target)).toBe(
      'kubectl --kubeconfig ./orch.kubeconfig get --raw /version',
    );
    expect(
      kubectlCommand(
        {
          method: 'PATCH',
          path: '/apis/apps/v1/namespaces/default/deployments/web?fieldManager=alice&force=true',
          headers: [['content-type', 'application/apply-patch+yaml']],
          body: 'kind: Deployment\n',
        },
        target,
      ),
    ).toBe(
      "kubectl --kubeconfig ./orch.kubeconfig apply --server-side --field-manager=alice --force-conflicts -f - <<'EOF'\nkind: Deployment\nEOF",
    );
    expect(
      kubectlCommand(
        {
          method: 'PATCH',
          path: '/apis/apps/v1/namespaces/default/deployments/web/scale',
          headers: [['content-type', 'application/merge-patch+json']],
          body: '{"spec":{"replicas":3}}',
        },
        target,
      ),
    ).toBe(
      `kubectl --kubeconfig ./orch.kubeconfig patch deployments.apps web -n default --subresource=scale --type=merge -p '{"spec":{"replicas":3}}'`,
    );
    expect(kubectlCommand({ method: 'OPTIONS', path: '/api', headers: [] }, target)).toBeUndefined();
  });
});
