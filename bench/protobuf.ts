/**
 * What a protobuf request body costs beside the same body in JSON, for a
 * Deployment as `kubectl create deployment` sends it (a Go client writes
 * every plain field, zero or not): Deployment creates per second over HTTP
 * with protobuf bodies, the floor being JSON creates of the same objects
 * on the same host in the same run; and decoding alone, the protobuf
 * envelope to the Go-shaped JSON object beside `JSON.parse` of the JSON
 * body. The memory store over plain HTTP, kubernetes profile.
 */

import { startNodeHost } from '../src/hosts/node/host';
import { protobufCodec } from '../src/http/protobuf/codec';
import { namingProfile } from '../src/machinery/naming';
import type { Figure } from './report';

const creates = 400;
const decodes = 5000;
const path = '/apis/apps/v1/namespaces/default/deployments';
const profile = namingProfile('kubernetes');
const codec = protobufCodec(profile);

function deployment(i: number): Record<string, unknown> {
  const labels = { app: `web-${i}` };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `web-${i}`, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }], resources: {} }],
        },
      },
      strategy: {},
    },
    status: {},
  };
}

function bodies(offset: number, count: number, protobuf: boolean): (string | Uint8Array)[] {
  return Array.from({ length: count }, (_, k) => {
    const obj = deployment(offset + k);
    return protobuf ? (codec.encode(obj, { asGoClient: true }) ?? new Uint8Array()) : JSON.stringify(obj);
  });
}

async function rate(
  url: string,
  auth: Record<string, string>,
  payloads: (string | Uint8Array)[],
  contentType: string,
  width: number,
): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < payloads.length) {
        const body = payloads[next++];
        const r = await fetch(`${url}${path}`, {
          method: 'POST',
          body: body as RequestInit['body'],
          headers: { 'content-type': contentType, ...auth },
        });
        if (r.status !== 201) throw new Error(`create answered ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
  return (payloads.length / (performance.now() - start)) * 1000;
}

function microsPerOp(count: number, op: (i: number) => void): number {
  const start = performance.now();
  for (let i = 0; i < count; i++) op(i);
  return ((performance.now() - start) * 1000) / count;
}

function decodeFigure(): Figure {
  const pb = bodies(0, 64, true) as Uint8Array[];
  const json = bodies(0, 64, false) as string[];
  // Warm both (the descriptor is built on first use).
  microsPerOp(500, (i) => codec.decode(pb[i % 64] ?? new Uint8Array()));
  microsPerOp(500, (i) => JSON.parse(json[i % 64] ?? '{}'));
  return {
    section: 'protobuf (Deployment body)',
    name: 'decode one body (µs)',
    value: microsPerOp(decodes, (i) => codec.decode(pb[i % 64] ?? new Uint8Array())),
    unit: 'µs',
    floor: microsPerOp(decodes, (i) => JSON.parse(json[i % 64] ?? '{}')),
    floorName: 'JSON.parse of the same object',
  };
}

export async function runProtobufBench(): Promise<Figure[]> {
  const figures: Figure[] = [decodeFigure()];
  const host = await startNodeHost({ port: 0, storage: 'memory', insecureHttp: true, profile: 'kubernetes' });
  const auth = { authorization: `Bearer ${host.token}` };
  const section = 'protobuf (Deployment creates, memory store, HTTP)';
  try {
    await rate(host.url, auth, bodies(100_000, 20, false), 'application/json', 1);
    await rate(host.url, auth, bodies(100_100, 20, true), profile.protobufMediaType, 1);
    let offset = 0;
    for (const width of [1, 16]) {
      const json = await rate(host.url, auth, bodies(offset, creates, false), 'application/json', width);
      offset += creates;
      const pb = await rate(host.url, auth, bodies(offset, creates, true), profile.protobufMediaType, width);
      offset += creates;
      figures.push({
        section,
        name: `protobuf creates/s, ${width === 1 ? 'sequential' : '16 in flight'}`,
        value: pb,
        unit: '/s',
        floor: json,
        floorName: 'JSON creates, same host and run',
        higherIsBetter: true,
      });
    }
  } finally {
    await host.close();
  }
  return figures;
}
