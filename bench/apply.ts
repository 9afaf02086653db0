/**
 * Server-side apply of a Deployment with 50 containers: a re-apply by the
 * owner (merge plus conflict check, nothing changes) and a conflicting
 * apply by a second manager (answered 409), timed per operation through the
 * field manager itself and over HTTP against the Node host. Floor: plain
 * JSON.parse of the same body.
 */

import { apply, ApplyConflictError, objectTypeFor } from '../src/fieldmanager/index';
import { builtInDefinitions, builtInRegistry } from '../src/registry/builtins';
import { Catalog } from '../src/registry/catalog';
import { parseRuntimeConfig } from '../src/registry/runtime-config';
import { namingProfile } from '../src/machinery/naming';
import { startNodeHost } from '../src/hosts/node/host';
import type { KubeObject } from '../src/api/meta';
import type { Figure } from './report';

function deployment(image: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'big', namespace: 'default', labels: { app: 'big' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'big' } },
      template: {
        metadata: { labels: { app: 'big' } },
        spec: {
          containers: Array.from({ length: 50 }, (_, i) => ({
            name: `c${i}`,
            image: i === 0 ? image : `registry.example/app-${i}:1.0`,
            ports: [{ containerPort: 8000 + i, protocol: 'TCP' }],
            env: [
              { name: 'A', value: String(i) },
              { name: 'B', value: 'x' },
            ],
            resources: { limits: { cpu: '100m', memory: '64Mi' } },
          })),
        },
      },
    },
  };
}

function timePer(runs: number, fn: () => void): number {
  for (let i = 0; i < Math.min(20, runs); i++) fn();
  const t = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - t) / runs;
}

async function timePerAsync(runs: number, fn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 5; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  return (performance.now() - t) / runs;
}

export async function runApplyBench(): Promise<Figure[]> {
  const body = JSON.stringify(deployment('nginx:1.25'));
  const conflicting = JSON.stringify({ ...deployment('nginx:1.26') });
  const parseFloor = timePer(2000, () => void JSON.parse(body));

  const catalog = new Catalog(namingProfile('orch'), builtInDefinitions);
  catalog.loadBuiltIns(builtInRegistry, parseRuntimeConfig(undefined));
  const rt = catalog.lookup('apps', 'v1', 'deployments');
  if (rt === undefined) throw new Error('no deployments');
  const type = objectTypeFor(rt, catalog.definitions);
  const now = new Date();
  const args = {
    type,
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    subresource: '',
    now,
    lastAppliedAnnotation: namingProfile('orch').subPrefixed('kubectl', 'last-applied-configuration'),
  };
  const live = apply({
    ...args,
    live: undefined,
    config: JSON.parse(body) as KubeObject,
    manager: 'alice',
    force: false,
  });
  const reapply = timePer(
    200,
    () =>
      void apply({ ...args, live, config: JSON.parse(body) as KubeObject, manager: 'alice', force: false }),
  );
  const conflict = timePer(200, () => {
    try {
      apply({ ...args, live, config: JSON.parse(conflicting) as KubeObject, manager: 'bob', force: false });
      throw new Error('expected a conflict');
    } catch (e) {
      if (!(e instanceof ApplyConflictError)) throw e;
    }
  });

  const host = await startNodeHost({ port: 0, insecureHttp: true });
  const url = `${host.url}/apis/apps/v1/namespaces/default/deployments/big?fieldManager=`;
  const send = async (manager: string, text: string, expected: number) => {
    const r = await fetch(`${url}${manager}`, {
      method: 'PATCH',
      body: text,
      headers: { 'content-type': 'application/apply-patch+yaml', authorization: `Bearer ${host.token}` },
    });
    await r.arrayBuffer();
    if (r.status !== expected) throw new Error(`apply answered ${r.status}`);
  };
  await send('alice', body, 201);
  const httpReapply = await timePerAsync(100, () => send('alice', body, 200));
  const httpConflict = await timePerAsync(100, () => send('bob', conflicting, 409));
  await host.close();

  const section = 'apply (Deployment, 50 containers)';
  const floorName = 'JSON.parse of the same body';
  return [
    {
      section,
      name: 're-apply by owner (field manager)',
      value: reapply,
      unit: 'ms',
      floor: parseFloor,
      floorName,
    },
    {
      section,
      name: 'conflicting apply (field manager)',
      value: conflict,
      unit: 'ms',
      floor: parseFloor,
      floorName,
    },
    {
      section,
      name: 're-apply by owner (HTTP)',
      value: httpReapply,
      unit: 'ms',
      floor: parseFloor,
      floorName,
    },
    {
      section,
      name: 'conflicting apply → 409 (HTTP)',
      value: httpConflict,
      unit: 'ms',
      floor: parseFloor,
      floorName,
    },
  ];
}
