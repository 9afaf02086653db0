/**
 * Decoding benchmark: a 1 MB JSON request body (a Pod with many containers)
 * holding one duplicate key, decoded by the server's duplicate-aware decoder
 * and by plain `JSON.parse` (the floor, which cannot see the duplicate).
 * Runs alternate between the two so machine noise hits both alike; the
 * medians are reported beside the floor. `runDecodeBench` returns the
 * figures for `npm run bench`; `npx tsx bench/decode.ts` prints them.
 */

import { pathToFileURL } from 'node:url';
import { decodeJson } from '../src/machinery/decode/json';
import { printFigures, type Figure } from './report';

const targetBytes = 1_000_000;
const warmup = 10;
const rounds = 60;

/** A Pod of about `bytes` of JSON whose `metadata.labels.app` appears twice. */
export function duplicateKeyBody(bytes = targetBytes): string {
  const containers: unknown[] = [];
  const pieces: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const c = {
      name: `container-${i}`,
      image: `registry.example.com/team/app-${i % 17}:1.${i % 9}.0`,
      args: ['--listen=:8080', `--shard=${i}`, '--log-level=info'],
      env: Array.from({ length: 5 }, (_, k) => ({
        name: `SETTING_${k}`,
        value: k === 4 ? `quoted "value" ${i}` : `value-${i}-${k}`,
      })),
      ports: [{ name: 'http', containerPort: 8080 + (i % 50), protocol: 'TCP' }],
      resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
      readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
    };
    containers.push(c);
    const piece = JSON.stringify(c);
    pieces.push(piece);
    size += piece.length + 1;
  }
  const body = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'big', namespace: 'default', labels: { app: 'bench', tier: 'x' } },
    spec: { containers },
  });
  return body.replace(
    '"labels":{"app":"bench","tier":"x"}',
    '"labels":{"app":"bench","tier":"x","app":"again"}',
  );
}

export function runDecodeBench(): Figure[] {
  const body = duplicateKeyBody();
  const found = decodeJson(body).duplicates.map((d) => d.path);
  if (found.length !== 1 || found[0] !== 'metadata.labels.app')
    throw new Error(`expected one duplicate, found ${JSON.stringify(found)}`);
  const parse: number[] = [];
  const decode: number[] = [];
  const typed: number[] = [];
  for (let r = 0; r < warmup + rounds; r++) {
    const a = time(() => JSON.parse(body));
    const b = time(() => decodeJson(body));
    const c = time(() => decodeJson(body, { mergeDuplicates: true }));
    if (r >= warmup) {
      parse.push(a);
      decode.push(b);
      typed.push(c);
    }
  }
  const floor = median(parse);
  const nsPerByte = (ms: number) => (ms * 1e6) / body.length;
  const section = 'decode';
  const floorName = 'JSON.parse, same body';
  return [
    {
      section,
      name: `1 MB JSON body, one duplicate key found (${body.length} B)`,
      value: median(decode),
      unit: 'ms',
      floor,
      floorName,
    },
    {
      section,
      name: 'same, typed decoding (repeats merge)',
      value: median(typed),
      unit: 'ms',
      floor,
      floorName,
    },
    {
      section,
      name: 'per byte',
      value: nsPerByte(median(decode)),
      unit: 'ns/B',
      floor: nsPerByte(floor),
      floorName,
    },
  ];
}

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(printFigures(runDecodeBench()));
