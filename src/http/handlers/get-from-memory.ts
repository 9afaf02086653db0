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
 *
 * In the browser host a kept text also goes out as a `Blob` made from it at
 * its first answer and kept with it (decision 0087): a service worker's
 * `Response` made from a string has its bytes registered with the browser as
 * a new blob when it is handed over, every time; one made from a `Blob` hands
 * over the blob already registered. The bytes are the text's, so the answer
 * is the same.
 */

import type { NamingProfile } from '../../machinery/naming';
import { jsonSizeAtMost, slicedAbove } from '../../machinery/json';
import { goJsonFor } from '../../registry/encoding/go-json';
import { toServedVersion } from '../../registry/conversion';
import { objectKey } from '../../registry/keys';
import { isStoredEntryGetter, type Getter, type RestStorage } from '../../registry/rest/capabilities';
import type { ResourceType } from '../../registry/resource-type';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import { baseHeaderInit, serialize } from '../respond';

/** What shapes the bytes besides the entry: the served version, Go's field order and zero values, `pretty`. */
export interface TextForm {
  rt: ResourceType;
  profile: NamingProfile | undefined;
  pretty: boolean;
}

export interface KeptText extends TextForm {
  text: string;
  /** The text as a `Blob`, made at the first answer that asks for one. */
  blob?: Blob;
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

  /** The text of `form` made from `entry` itself (with its `Blob`, once made); never one of an earlier entry of the key. */
  find(key: string, entry: object, form: TextForm): KeptText | undefined {
    const kept = this.byKey.get(key);
    if (kept?.entry !== entry) return undefined;
    // A loop, not `find` with a closure: every kept GET asks, and most keys hold one form.
    for (const k of kept.forms)
      if (k.rt === form.rt && k.profile === form.profile && k.pretty === form.pretty) return k;
    return undefined;
  }

  /**
   * Keeps `text` for `entry` and answers it as kept; the texts of an earlier entry of the key go at once. A key
   * already holding its most forms keeps no more (the answer is then not kept).
   */
  keep(key: string, entry: object, form: TextForm, text: string): KeptText {
    let kept = this.byKey.get(key);
    const made: KeptText = { ...form, text };
    if (kept?.entry !== entry) {
      this.drop(key);
      kept = { entry, forms: [], chars: 0 };
      this.byKey.set(key, kept);
    } else if (kept.forms.length >= maxFormsPerEntry) return made;
    kept.forms.push(made);
    kept.chars += text.length;
    this.chars += text.length;
    for (const oldest of this.byKey.keys()) {
      if (this.chars <= this.maxChars) break;
      this.drop(oldest);
    }
    return made;
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

/**
 * The answer to a current GET from kept (or newly kept) text, or undefined when the ordinary path must answer;
 * `asBlob`: the body is the text's kept `Blob` (see the module note).
 */
export function answerFromMemory(
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & Getter,
  asBlob = false,
): Response | undefined {
  const out = ctx.output;
  if (out?.kind !== 'json' || out.protobuf !== undefined) return undefined;
  // Only a storage that says its answer is the stored entry as is (the generic store; nothing wrapping it).
  if (!isStoredEntryGetter(storage) || req.info.subresource !== '') return undefined;
  const entry = storage.peekCurrent(req.rt, req.namespace, req.info.name);
  if (entry === undefined) {
    // Gone (or not in memory now): its texts go with it rather than wait for the bound.
    kept.drop(objectKey(req.rt.storage, req.rt.namespaced ? req.namespace : '', req.info.name));
    return undefined;
  }
  const { key } = entry;
  const form: TextForm = { rt: req.rt, profile: out.profile, pretty: ctx.pretty };
  let found = kept.find(key, entry, form);
  if (found === undefined) {
    // The served object is made only for a text not kept yet (a kept answer reads nothing of the entry).
    const object = toServedVersion(req.rt, entry.object);
    if (!jsonSizeAtMost(object, slicedAbove)) return undefined;
    // As `respondValue` writes it (shaping makes a new object; the entry is not changed).
    const text = serialize(
      form.profile === undefined ? object : goJsonFor(form.profile).shape(object),
      'json',
      form.pretty,
    );
    found = kept.keep(key, entry, form, text);
  }
  const body =
    ctx.request.method === 'HEAD' ? null : asBlob ? (found.blob ??= new Blob([found.text])) : found.text;
  return new Response(body, {
    status: 200,
    headers: baseHeaderInit(ctx, 'application/json'),
  });
}
