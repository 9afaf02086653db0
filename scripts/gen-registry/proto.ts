/**
 * Reads the v1.27 `generated.proto` files with protobufjs and writes the
 * protobuf descriptor the server needs, in protobufjs JSON form with neutral
 * package names (`api.apps.v1`, `apimachinery.pkg.apis.meta.v1`). The same
 * messages decide which kinds and fields exist in v1.27 (see
 * `definitions.ts`), so they are indexed here by neutral full name.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MapField, Namespace, Root, Type, parse, type INamespace, type ReflectionObject } from 'protobufjs';
import { neutralProtoName, upstreamProtoName } from './names';

export interface ProtoIndex {
  root: Root;
  /** Every message by neutral full name, e.g. `api.apps.v1.Deployment`. */
  messages: Map<string, Type>;
}

/**
 * What a message field means in JSON when its name alone does not say:
 * `jsonName` when the JSON property is spelled differently (`Webhooks` is
 * `webhooks`, `ref` is `$ref`), `inline` when the field is a Go embedded
 * struct whose fields appear directly in the parent JSON object (e.g.
 * `Volume.volumeSource`, `Probe.handler`).
 */
export interface FieldAnnotation {
  jsonName?: string;
  inline?: boolean;
}

/** Annotations by neutral message name, then by field name. */
export type ProtoAnnotations = Map<string, Map<string, FieldAnnotation>>;

interface FieldJson {
  rule?: 'repeated';
  keyType?: string;
  type: string;
  id: number;
  jsonName?: string;
  options?: { inline: true };
}

interface MessageJson {
  edition?: string;
  fields: Record<string, FieldJson>;
}

export interface NamespaceJson {
  nested: Record<string, NamespaceJson | MessageJson>;
}

function protoFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...protoFiles(full));
    else if (entry.name.endsWith('.proto')) out.push(full);
  }
  return out.sort();
}

function nestedOf(object: ReflectionObject): ReflectionObject[] {
  return object instanceof Namespace || object instanceof Type ? object.nestedArray : [];
}

export function loadProtos(dir: string): ProtoIndex {
  const root = new Root();
  for (const file of protoFiles(dir)) {
    // keepCase: upstream field names are already the JSON-style names; never re-case them.
    parse(readFileSync(file, 'utf8'), root, { keepCase: true });
  }
  root.resolveAll();
  const messages = new Map<string, Type>();
  const walk = (object: ReflectionObject): void => {
    if (object instanceof Type) messages.set(neutralProtoName(object.fullName.slice(1)), object);
    for (const child of nestedOf(object)) walk(child);
  };
  walk(root);
  return { root, messages };
}

/** A field type as written upstream, with the upstream package prefix removed from qualified names. */
function neutralTypeRef(type: string): string {
  return type.startsWith('k8s.io.') ? neutralProtoName(type) : type;
}

function messageJson(type: Type, annotations: Map<string, FieldAnnotation> | undefined): MessageJson {
  if (type.nestedArray.length > 0 || type.oneofsArray.length > 0) {
    throw new Error(`message ${type.fullName} has nested declarations; the exporter does not handle them`);
  }
  const fields: Record<string, FieldJson> = {};
  for (const field of [...type.fieldsArray].sort((a, b) => a.id - b.id)) {
    if (
      field.required ||
      field.extend !== undefined ||
      (field.options && Object.keys(field.options).length > 0)
    ) {
      throw new Error(`field ${type.fullName}.${field.name} uses a feature the exporter does not handle`);
    }
    const note = annotations?.get(field.name);
    fields[field.name] = {
      ...(field instanceof MapField
        ? { keyType: field.keyType }
        : field.repeated && { rule: 'repeated' as const }),
      type: neutralTypeRef(field.type),
      id: field.id,
      ...(note?.jsonName !== undefined && { jsonName: note.jsonName }),
      ...(note?.inline === true && { options: { inline: true as const } }),
    };
  }
  const edition = type.toJSON().edition;
  return edition === undefined ? { fields } : { edition, fields };
}

/**
 * The descriptor of every message in `packages` (neutral package names), as
 * nested namespaces sorted by name. Fails when a message refers to a type
 * outside the exported packages.
 */
export function exportDescriptor(
  index: ProtoIndex,
  packages: Iterable<string>,
  annotations: ProtoAnnotations,
): { json: NamespaceJson; messageCount: number } {
  const json: NamespaceJson = { nested: {} };
  let messageCount = 0;
  for (const pkg of [...packages].sort()) {
    const ns = index.root.lookup(upstreamProtoName(pkg));
    if (!(ns instanceof Namespace)) throw new Error(`no protobuf package ${pkg}`);
    let target = json;
    for (const segment of pkg.split('.')) {
      const next = target.nested[segment] ?? { nested: {} };
      if (!('nested' in next)) throw new Error(`package segment ${segment} of ${pkg} clashes with a message`);
      target.nested[segment] = next;
      target = next;
    }
    for (const child of [...ns.nestedArray].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      // Type derives from Namespace at run time, so test for it first.
      if (child instanceof Type) {
        target.nested[child.name] = messageJson(child, annotations.get(`${pkg}.${child.name}`));
        messageCount++;
      } else if (!(child instanceof Namespace)) {
        throw new Error(`unexpected ${child.toString()} in ${pkg}`);
      } // sub-packages are exported on their own
    }
  }
  sortNamespaces(json);
  // Loading the descriptor back proves every type reference resolves inside it.
  Root.fromJSON(json as INamespace).resolveAll();
  return { json, messageCount };
}

function sortNamespaces(ns: NamespaceJson): void {
  const entries = Object.entries(ns.nested).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  ns.nested = Object.fromEntries(entries);
  for (const [, child] of entries) if ('nested' in child) sortNamespaces(child);
}
