/**
 * The registry generator (`npm run gen`): reads the upstream reference data
 * (OpenAPI v3 documents of v1.28.4 and the v1.27 protobuf definitions) and
 * writes the project's own v1.27 facts under `src/registry/generated/`:
 * `resources.json` (discovery), `definitions.json` and `definitions-lazy.json`
 * (schemas: the worker's start path and the rest, gen-registry/parts.ts) with
 * the Go field order of each, `go-pointers.json` and `proto.json` (protobuf descriptor), all with neutral names and no upstream description
 * text. The project never reads the reference data at build, run or test
 * time, so the output is committed; re-running it must give no diff.
 *
 * Usage: `tsx scripts/gen-registry.ts [reference-data-dir]` (default `../shared`).
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { JsonValue } from '../src/api/meta';
import { convertDefinitions, selectDefinitions } from './gen-registry/definitions';
import { formatJson, sortKeysDeep } from './gen-registry/json';
import { packageOf, protoNameOfDefinition } from './gen-registry/names';
import { loadOpenApi } from './gen-registry/openapi';
import { exportDescriptor, loadProtos } from './gen-registry/proto';
import { encodeGoFieldOrder, goFieldOrder } from './gen-registry/field-order';
import { goPointerFacts } from './gen-registry/go-pointer-facts';
import { deriveRegistry } from './gen-registry/resources';
import { isStartPathDefinition } from './gen-registry/parts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const referenceDir = resolve(repoRoot, process.argv[2] ?? '../shared');
const outDir = join(repoRoot, 'src/registry/generated');

/** Plain data built by the generator is JSON by construction; this only changes the static type. */
function json(value: object): JsonValue {
  return value as JsonValue;
}

/** The entries of a record whose names `keep` accepts. */
function pick<T>(record: Record<string, T>, keep: (name: string) => boolean): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => keep(name)));
}

function printList(title: string, items: readonly string[]): void {
  if (items.length === 0) return;
  console.log(`${title} (${items.length}):`);
  for (const item of items) console.log(`  ${item}`);
}

function main(): void {
  const openapi = loadOpenApi(join(referenceDir, 'k8s-openapi-v1.28.4'));
  const protos = loadProtos(join(referenceDir, 'k8s-proto-v1.27'));

  const converted = convertDefinitions(openapi.schemas, protos);
  const derived = deriveRegistry(openapi.documents, converted);
  const definitions = selectDefinitions(converted, derived.keptGroupVersions);
  for (const name of derived.usedDefinitions) {
    if (definitions[name] === undefined) throw new Error(`registry names ${name}, which was not kept`);
  }

  // Every package that a kept, protobuf-backed definition lives in; that
  // covers each kept group/version plus meta/v1, runtime, intstr and resource.
  const packages = new Set<string>();
  for (const name of Object.keys(definitions)) {
    const message = protoNameOfDefinition(name);
    if (protos.messages.has(message)) packages.add(packageOf(message));
  }
  const proto = exportDescriptor(protos, packages, converted.annotations);

  // The worker's start carries the first part; the second is a lazy script (gen-registry/parts.ts).
  const fieldOrder = goFieldOrder(definitions, protos, converted.annotations);
  const definitionParts: [string, typeof definitions][] = [
    ['', pick(definitions, isStartPathDefinition)],
    ['-lazy', pick(definitions, (name) => !isStartPathDefinition(name))],
  ];

  const outputs: [string, string][] = [
    [
      'resources.json',
      // One resource per line: root › groups › group › versions › version › resources › resource.
      formatJson(json(derived.registry), (_value, path) => path.length >= 6),
    ],
    ...definitionParts.flatMap(([suffix, part]): [string, string][] => [
      [`definitions${suffix}.json`, formatJson(sortKeysDeep(json(part)), (_value, path) => path.length >= 1)],
      // Each part's order is aligned with its own sorted names (registry/go-field-order.ts).
      [
        `go-field-order${suffix}.json`,
        formatJson(json(encodeGoFieldOrder(part, fieldOrder)), (_value, path) => path.length >= 1),
      ],
    ]),
    ['go-pointers.json', formatJson(json(goPointerFacts(definitions)), (_value, path) => path.length >= 1)],
    [
      'proto.json',
      formatJson(
        json(proto.json),
        (value) => value !== null && typeof value === 'object' && !Array.isArray(value) && 'fields' in value,
      ),
    ],
  ];

  const notes = converted.notes;
  printList('Definitions without a v1.27 protobuf message (dropped)', notes.droppedDefinitions);
  printList('Properties without a v1.27 protobuf field (dropped)', notes.droppedProperties);
  printList('Protobuf fields read as embedded structs (inline)', notes.inlineFields);
  printList('Protobuf fields without a JSON property', notes.unmatchedProtoFields);
  printList('Resources whose kind v1.27 lacks (dropped)', derived.notes.droppedResources);
  printList('Group/versions left without resources (dropped)', derived.notes.droppedVersions);

  mkdirSync(outDir, { recursive: true });
  console.log('\nOutputs:');
  for (const [file, text] of outputs) {
    writeFileSync(join(outDir, file), text);
    const raw = Buffer.byteLength(text);
    const gzip = gzipSync(text, { level: 9 }).length;
    console.log(
      `  ${file.padEnd(24)} ${(raw / 1024).toFixed(1).padStart(7)} KiB raw ${(gzip / 1024).toFixed(1).padStart(6)} KiB gzip`,
    );
  }

  const groups = derived.registry.groups;
  const versions = groups.flatMap((g) => g.versions);
  const resources = versions.flatMap((v) => v.resources);
  const subresources = resources.reduce((n, r) => n + r.subresources.length, 0);
  console.log(
    `\nCounts: ${groups.length} groups, ${versions.length} versions, ${resources.length} resources ` +
      `(+${subresources} subresources), ${Object.keys(definitions).length} definitions, ` +
      `${proto.messageCount} protobuf messages in ${packages.size} packages`,
  );
}

main();
