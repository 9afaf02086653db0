import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { generateService, portsFor, selectorFor, type ExposeOptions } from './expose';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      spec: {
        containers: [
          { name: 'a', ports: [{ containerPort: 80 }] },
          { name: 'b', ports: [{ containerPort: 53, protocol: 'UDP' }] },
        ],
      },
    },
  },
} as unknown as KubeObject;

const base: ExposeOptions = {
  name: 'web',
  ports: ['80'],
  protocols: new Map(),
  protocol: '',
  targetPort: '',
  labels: {},
  selector: { app: 'web' },
  type: '',
  clusterIP: '',
  externalIP: '',
  sessionAffinity: '',
  loadBalancerIP: '',
};

describe('expose', () => {
  it('derives selector and ports with protocols from the object', () => {
    expect(selectorFor(deployment)).toEqual({ app: 'web' });
    expect(portsFor(deployment)).toEqual([
      { port: '80', protocol: 'TCP' },
      { port: '53', protocol: 'UDP' },
    ]);
  });

  it('refuses kinds it cannot select for, unlabelled pods and renamed groups', () => {
    expect(() => selectorFor({ apiVersion: 'v1', kind: 'ConfigMap' })).toThrow('cannot expose a ConfigMap');
    expect(() => selectorFor({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } })).toThrow(
      'the pod has no labels and cannot be exposed',
    );
    expect(() => selectorFor({ ...deployment, apiVersion: 'apps.orch.io/v1' })).toThrow(
      'cannot expose a Deployment',
    );
  });

  it('names several ports and keeps the target port equal to the port unless told', () => {
    const svc = generateService({ ...base, ports: ['80', '53'], protocols: new Map([['53', 'UDP']]) });
    expect((svc['spec'] as { ports: unknown[] }).ports).toEqual([
      { name: 'port-1', protocol: 'TCP', port: 80, targetPort: 80 },
      { name: 'port-2', protocol: 'UDP', port: 53, targetPort: 53 },
    ]);
    const named = generateService({ ...base, targetPort: 'http', type: 'NodePort' });
    expect(named['spec']).toMatchObject({ ports: [{ port: 80, targetPort: 'http' }], type: 'NodePort' });
  });
});
