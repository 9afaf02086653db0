/**
 * A plain GET answered with text kept beside the stored object: when the
 * storage holds the object's current value in memory (`Storage.peekCurrent`:
 * the browser's read cache while it holds the writer lease, the memory
 * backend), the answer's JSON text is made once per stored entry and kept
 * in a WeakMap keyed by the entry's identity. The storage replaces an entry
 * on every commit and never changes one, so an update makes a new entry:
 * text kept for the old one is never found again, and goes with it
 * (decision 0068).
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
 * The kept texts are bounded (characters in all, oldest entry out first):
 * the memory backend holds every object, and a text per object read once
 * would grow the heap with the store. An entry collected leaves the count
 * with its texts (a FinalizationRegistry), so the bound counts live ones.
 */

import type { NamingProfile } from '../../machinery/naming';
import { jsonSizeAtMost, slicedAbove } from '../../machinery/json';
import { goJsonFor } from '../../registry/encoding/go-json';
import { isStoredEntryGetter, type Getter, type RestStorage } from '../../registry/rest/capabilities';
import type { ResourceType } from '../../registry/resource-type';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import { baseHeaders, serialize } from '../respond';

interface KeptText {
  rt: ResourceType;
  profile: NamingProfile | undefined;
  pretty: boolean;
  text: string;
}

/** The texts of one stored entry: a few forms at most (versions, pretty), the first asked for. */
interface Kept {
  forms: KeptText[];
  count: Count;
}

/** What the budget counts of one entry; it does not hold the texts, so they go with the entry. */
interface Count {
  entry: WeakRef<object>;
  chars: number;
}

/**
 * Texts by stored entry: a replaced or deleted entry, once nothing else holds it, takes its texts with it.
 * The budget still bounds what live entries keep (the memory backend holds every object it stores).
 */
const kept = new WeakMap<object, Kept>();
const maxFormsPerEntry = 4;
/** Characters of text kept in all (~8 MiB at most, less for ASCII text). */
const maxKeptChars = 4 * 1024 * 1024;
/** The counted entries, oldest first: the budget sends the oldest out first. */
const counts = new Set<Count>();
let keptChars = 0;

function uncount(count: Count): void {
  if (counts.delete(count)) keptChars -= count.chars;
}

/** A collected entry's characters leave the budget with it. */
const collected = new FinalizationRegistry<Count>(uncount);

function keep(entry: object, form: KeptText): void {
  let texts = kept.get(entry);
  if (texts === undefined) {
    const count: Count = { entry: new WeakRef(entry), chars: 0 };
    kept.set(entry, (texts = { forms: [], count }));
    counts.add(count);
    collected.register(entry, count, count);
  } else if (texts.forms.length >= maxFormsPerEntry) return;
  texts.forms.push(form);
  texts.count.chars += form.text.length;
  keptChars += form.text.length;
  for (const oldest of counts) {
    if (keptChars <= maxKeptChars) break;
    const live = oldest.entry.deref();
    if (live !== undefined) kept.delete(live);
    collected.unregister(oldest);
    uncount(oldest);
  }
}

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
  if (peeked === undefined) return undefined;
  const { profile } = out;
  const { pretty } = ctx;
  let text = kept
    .get(peeked.entry)
    ?.forms.find((k) => k.rt === req.rt && k.profile === profile && k.pretty === pretty)?.text;
  if (text === undefined) {
    if (!jsonSizeAtMost(peeked.object, slicedAbove)) return undefined;
    // As `respondValue` writes it (shaping makes a new object; the entry is not changed).
    text = serialize(
      profile === undefined ? peeked.object : goJsonFor(profile).shape(peeked.object),
      'json',
      pretty,
    );
    keep(peeked.entry, { rt: req.rt, profile, pretty, text });
  }
  return new Response(ctx.request.method === 'HEAD' ? null : text, {
    status: 200,
    headers: baseHeaders(ctx, 'application/json'),
  });
}
