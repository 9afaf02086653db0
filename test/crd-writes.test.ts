/**
 * Writes to custom resources that go through paths built for built-in kinds:
 * a merge patch keeps a nullable field's null (custom resources do not drop
 * nulls), and server-side apply through `/scale` lands on the CRD's
 * specReplicasPath.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { createEstablished, crdBody } from './support/crd';

let host: TestHost;
const group = 'writes.example.com';
const base = `/apis/${group}/v1/namespaces/default/gadgets`;

beforeAll(async () => {
  host = await startTestHost();
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { note: { type: 'string', nullable: true }, size: { type: 'integer' } },
      },
      status: { type: 'object', properties: { size: { type: 'integer' } } },
    },
  };
  await createEstablished(
    host,
    crdBody(schema, {
      group,
      plural: 'gadgets',
      kind: 'Gadget',
      version: {
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' },
        },
      },
    }),
  );
});
afterAll(async () => {
  await host.close();
});

it('a merge patch keeps a nullable null on a custom resource', async () => {
  expect(
    (
      await host.request('POST', base, {
        body: {
          apiVersion: `${group}/v1`,
          kind: 'Gadget',
          metadata: { name: 'g1' },
          spec: { note: 'x', size: 1 },
        },
      })
    ).status,
  ).toBe(201);
  const r = await host.request('PATCH', `${base}/g1`, {
    body: [{ op: 'replace', path: '/spec/note', value: null }],
    contentType: 'application/json-patch+json',
  });
  expect(r.status).toBe(200);
  expect(r.body.spec).toEqual({ note: null, size: 1 });
});

it('apply through /scale sets the specReplicasPath field', async () => {
  expect(
    (
      await host.request('POST', base, {
        body: { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'g2' }, spec: { size: 1 } },
      })
    ).status,
  ).toBe(201);
  const r = await host.request('PATCH', `${base}/g2/scale?fieldManager=scaler`, {
    body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'g2' }, spec: { replicas: 4 } },
    contentType: 'application/apply-patch+yaml',
  });
  expect(r.status).toBe(200);
  expect(r.body.spec.replicas).toBe(4);
  const g = await host.request('GET', `${base}/g2`);
  expect(g.body.spec.size).toBe(4);
  expect(g.body.spec.replicas).toBeUndefined();
});
