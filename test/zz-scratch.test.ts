import { it, expect } from 'vitest';
import { protobufCodec } from '../src/http/protobuf/codec';
import { namingProfile } from '../src/machinery/naming';
it('rt', () => {
  const c = protobufCodec(namingProfile('kubernetes'));
  const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default', uid: 'u', resourceVersion: '5', generation: 2, creationTimestamp: '2024-01-02T03:04:05Z', labels: { a: 'b' }, managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', time: '2024-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }] },
    spec: { replicas: 0, selector: { matchLabels: { app: 'x' } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: { limits: { cpu: '500m' } }, livenessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 10 } }], volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }] } } },
    status: { conditions: [{ type: 'Available', status: 'True', lastUpdateTime: '2024-01-02T03:04:05Z' }] } };
  const bytes = c.encode(dep)!;
  expect(bytes).toBeDefined();
  const back = c.decode(bytes);
  expect(back).toEqual(dep);
  console.log(bytes.length, JSON.stringify(dep).length);
});
