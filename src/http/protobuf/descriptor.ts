/**
 * The protobuf descriptor of the built-in kinds (`registry/generated/proto.json`),
 * loaded into protobufjs on first use so that a host that never speaks
 * protobuf pays nothing for it (both come with the lazily loaded library). It also answers which message
 * a group/version/kind is encoded as, and which field annotations
 * (`jsonName`, embedded-struct `inline`) the JSON form needs.
 */

import type { INamespace, Root, Type } from 'protobufjs/light';
import type { NamingProfile } from '../../machinery/naming';
import type { DefinitionSet } from '../../machinery/schema';
import { maxNestingDepth } from '../../machinery/decode/json';
import { protobufLibrary } from './library';

interface FieldJson {
  jsonName?: string;
  options?: { inline?: boolean };
}

interface NodeJson {
  nested?: Record<string, NodeJson>;
  fields?: Record<string, FieldJson>;
}

export interface FieldAnnotation {
  jsonName?: string;
  inline?: boolean;
}

let root: Root | undefined;
let annotations: Map<string, Map<string, FieldAnnotation>> | undefined;

/** The protobufjs root, built once. */
export function protoRoot(): Root {
  if (root === undefined) {
    const { Root, protoJson, util } = protobufLibrary.get();
    // protobufjs refuses to encode messages nested more than 100 deep (protoc's decoding default), but a
    // stored object may nest as deeply as a body may (a CRD's schema nests two messages per level): what
    // the server accepted it must be able to answer. Decoding keeps its own limit (`Reader.recursionLimit`).
    util.recursionLimit = Math.max(util.recursionLimit, 2 * maxNestingDepth + 64);
    root = Root.fromJSON(protoJson as INamespace);
    root.resolveAll();
  }
  return root;
}

function collectAnnotations(): Map<string, Map<string, FieldAnnotation>> {
  const out = new Map<string, Map<string, FieldAnnotation>>();
  const walk = (node: NodeJson, prefix: string): void => {
    for (const [name, child] of Object.entries(node.nested ?? {})) {
      const full = prefix === '' ? name : `${prefix}.${name}`;
      if (child.fields !== undefined) {
        const notes = new Map<string, FieldAnnotation>();
        for (const [field, f] of Object.entries(child.fields)) {
          if (f.jsonName !== undefined || f.options?.inline === true)
            notes.set(field, {
              ...(f.jsonName !== undefined ? { jsonName: f.jsonName } : {}),
              ...(f.options?.inline === true ? { inline: true } : {}),
            });
        }
        if (notes.size > 0) out.set(full, notes);
      }
      walk(child, full);
    }
  };
  walk(protobufLibrary.get().protoJson as NodeJson, '');
  return out;
}

/** Annotations of a message's fields, by field name (empty when it has none). */
export function fieldAnnotations(fullName: string): ReadonlyMap<string, FieldAnnotation> | undefined {
  annotations ??= collectAnnotations();
  return annotations.get(fullName);
}

/** A message's full name without protobufjs's leading dot. */
export function fullNameOf(type: Type): string {
  return type.fullName.startsWith('.') ? type.fullName.slice(1) : type.fullName;
}

/** Definition names use `-` where proto packages use `_` (`apiextensions-apiserver` vs `apiextensions_apiserver`). */
export function protoNameOfDefinition(definition: string): string {
  return definition.replace(/-/g, '_');
}

export function definitionOfProtoName(protoName: string): string {
  const dot = protoName.indexOf('.');
  return dot < 0 ? protoName : protoName.slice(0, dot).replace(/_/g, '-') + protoName.slice(dot);
}

export function lookupMessage(fullName: string): Type | undefined {
  try {
    return protoRoot().lookupType(fullName);
  } catch {
    return undefined;
  }
}

/** Maps `apiVersion`/`kind` to the message that encodes it, from the definitions' group/version/kinds. */
export class KindIndex {
  private readonly byKey = new Map<string, string>();

  constructor(profile: NamingProfile, definitions: DefinitionSet) {
    for (const [name, def] of Object.entries(definitions)) {
      for (const g of def.gvk ?? []) {
        const group = g.groupSuffixed === true ? profile.suffixed(g.group) : g.group;
        const apiVersion = group === '' ? g.version : `${group}/${g.version}`;
        const key = `${apiVersion}|${g.kind}`;
        // A few meta types (Status, WatchEvent, DeleteOptions) are listed under every group: the first owner wins.
        if (!this.byKey.has(key)) this.byKey.set(key, name);
      }
    }
  }

  /** The message of an `apiVersion`/`kind`, or undefined when it has none (Table, custom resources). */
  message(apiVersion: string, kind: string): Type | undefined {
    const def = this.byKey.get(`${apiVersion}|${kind}`);
    return def === undefined ? undefined : lookupMessage(protoNameOfDefinition(def));
  }

  definitionOf(apiVersion: string, kind: string): string | undefined {
    return this.byKey.get(`${apiVersion}|${kind}`);
  }
}
