import { it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Root, parse } from 'protobufjs';
import { protobufCodec } from '../src/http/protobuf/codec';
import { namingProfile } from '../src/machinery/naming';
function files(d: string): string[] { return readdirSync(d).flatMap((n) => { const f = join(d, n); return statSync(f).isDirectory() ? files(f) : f.endsWith('.proto') ? [f] : []; }); }
it('upstream decode', () => {
  const root = new Root();
  for (const f of files('/work/shared/k8s-proto-v1.27')) parse(readFileSync(f, 'utf8'), root, { keepCase: true });
  root.resolveAll();
  const c = protobufCodec(namingProfile('kubernetes'));
  const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', creationTimestamp: '2024-01-02T03:04:05Z', managedFields: [{ manager: 'k', fieldsType: 'FieldsV1', fieldsV1: { 'f:a': {} } }] },
    spec: { replicas: 0, selector: { matchLabels: { app: 'x' } }, strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
      template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: '500m' } }, livenessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 10 } }], volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }] } } } };
  const bytes = c.encode(dep)!;
  const unk = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown').decode(bytes.subarray(4)) as any;
  console.log(JSON.stringify(unk.typeMeta), unk.contentType, unk.contentEncoding);
  const d = root.lookupType('k8s.io.api.apps.v1.Deployment').decode(unk.raw);
  console.log(JSON.stringify(root.lookupType('k8s.io.api.apps.v1.Deployment').toObject(d, { longs: Number, bytes: String }), null, 1));
  const sec = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'aGVsbG8=' }, type: 'Opaque' };
  const sb = c.encode(sec)!; const su = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown').decode(sb.subarray(4)) as any;
  console.log(JSON.stringify(root.lookupType('k8s.io.api.core.v1.Secret').toObject(root.lookupType('k8s.io.api.core.v1.Secret').decode(su.raw))));
  console.log(JSON.stringify(c.decode(sb)));
});
