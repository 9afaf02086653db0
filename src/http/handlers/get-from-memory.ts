/**
 * A plain GET answered with text kept beside the stored object: when the
 * storage holds the object's current value in memory (`Storage.peekCurrent`:
 * the browser's read cache while it holds the writer lease, the memory
 * backend), the answer's JSON text is made once per stored entry and kept
 * under the object's storage key, beside the entry it was made for. The
 * storage replaces an entry on every commit and never changes one, so an
 * update makes a new entry: text is served only for the very entry it was
 * made from, the next GET of a replaced entry overwrites its key's texts,
 * and a GET that finds the object gone drops them (decision 0068).
 *
 * Only where the answer is provably the entry encoded as is: a storage that
 * says so (`StoredEntryGetter`: the resource's own generic store, no kind's
 * storage around it), no subresource, a current
 * read (resourceVersion "" or "0"), JSON (no Table, no PartialObjectMetadata,
 * no protobuf, no YAML), a built-in resource whose served object is the stored
 * one or a shallow copy naming its version (no hub conversion, no custom
 * resource schema), and a small object (a wide one is encoded in slices by the
 * ordinary path). Everything else that shapes the bytes is in the key: the
 * resource type (its served version), the naming profile (Go's field order
 * and zero values) and `pretty`. Anything else goes the ordinary way.
 *
 * The kept texts are bounded (characters in all, the key kept longest ago
 * out first): the memory backend holds every object, and a text per object
 * read once would grow the heap with the store.
 */

import type { NamingProfile } from '../../machinery/naming';
import { jsonSizeAtMost, slicedAbove } from '../../machinery/json';
import { goJsonFor } from '../../registry/encoding/go-json';
import { objectKey } from '../../registry/keys';
import { isStoredEntryGetter, type Getter, type RestStorage } from '../../registry/rest/capabilities';
import type { ResourceType } from '../../registry/resource-type';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import { baseHeaderList, serialize } from '../respond';

/** What shapes the bytes besides the entry: the served version, Go's field order and zero values, `pretty`. */
export interface TextForm {
  rt: ResourceType;
  profile: NamingProfile | undefined;
  pretty: boolean;
}

interface KeptText extends TextForm {
  text: string;
}

/** The texts of one key: the entry they were made from, and a few forms at most (the first asked for). */
interface Kept {
  entry: object;
  forms: KeptText[];
  chars: number;
}

const maxFormsPerEntry = 4;
/** Characters of text kept in all (~8 MiB at most, less for ASCII text). */
export const maxKeptChars = 4 * 1024 * 1024;

/**
 * Answer texts by storage key, in the order the keys were (re)kept: a Map iterates in insertion order, so
 * the bound sends out the key kept longest ago first.
 */
export class KeptTexts {
  private readonly byKey = new Map<string, Kept>();
  private chars = 0;

  constructor(private readonly maxChars: number = maxKeptChars) {}

  /** The text of `form` made from `entry` itself; never one made from an earlier entry of the key. */
  find(key: string, entry: object, form: TextForm): string | undefined {
    const kept = this.byKey.get(key);
    if (kept?.entry !== entry) return undefined;
    return kept.forms.find((k) => k.rt === form.rt && k.profile === form.profile && k.pretty === form.pretty)
      ?.text;
  }

  /** Keeps `text` for `entry`; the texts of an earlier entry of the key go at once. */
  keep(key: string, entry: object, form: TextForm, text: string): void {
    let kept = this.byKey.get(key);
    if (kept?.entry !== entry) {
      this.drop(key);
      kept = { entry, forms: [], chars: 0 };
      this.byKey.set(key, kept);
    } else if (kept.forms.length >= maxFormsPerEntry) return;
    kept.forms.push({ ...form, text });
    kept.chars += text.length;
    this.chars += text.length;
    for (const oldest of this.byKey.keys()) {
      if (this.chars <= this.maxChars) break;
      this.drop(oldest);
    }
  }

  /** Forgets the key's texts (its object is gone, or its entry replaced). */
  drop(key: string): void {
    const kept = this.byKey.get(key);
    if (kept === undefined) return;
    this.byKey.delete(key);
    this.chars -= kept.chars;
  }

  /** Characters kept in all, and the keys holding them (for tests and benches). */
  size(): { chars: number; keys: number } {
    return { chars: this.chars, keys: this.byKey.size };
  }
}

const kept = new KeptTexts();

/** The answer to a current GET from kept (or newly kept) text, or undefined when the ordinary path must answer. */
export function answerFromMemory(
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & Getter,
): Response | undefined {
  const out = ctx.output;
  if (out?.kind !== 'json' || out.protobuf !== undefined) return undefined;
  // Only a storage that says its answer is the stored entry as is (the generic store; nothing wrapping it).
  if (!isStoredEntryGetter(storage) || req.info.subresource !== '') return undefined;
  const peeked = storage.peekCurrent(req.rt, req.namespace, req.info.name);
  if (peeked === undefined) {
    // Gone (or not in memory now): its texts go with it rather than wait for the bound.
    kept.drop(objectKey(req.rt.storage, req.rt.namespaced ? req.namespace : '', req.info.name));
    return undefined;
  }
  const { key } = peeked.entry;
  const form: TextForm = { rt: req.rt, profile: out.profile, pretty: ctx.pretty };
  let text = kept.find(key, peeked.entry, form);
  if (text === undefined) {
    if (!jsonSizeAtMost(peeked.object, slicedAbove)) return undefined;
    // As `respondValue` writes it (shaping makes a new object; the entry is not changed).
    text = serialize(
      form.profile === undefined ? peeked.object : goJsonFor(form.profile).shape(peeked.object),
      'json',
      form.pretty,
    );
    kept.keep(key, peeked.entry, form, text);
  }
  return new Response(ctx.request.method === 'HEAD' ? null : text, {
    status: 200,
    headers: baseHeaderList(ctx, 'application/json'),
  });
}
