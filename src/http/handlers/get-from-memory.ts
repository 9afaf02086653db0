/**
 * A plain GET answered with text kept beside the stored object: when the
 * storage holds the object's current value in memory (`Storage.peekCurrent`:
 * the browser's read cache while it holds the writer lease, the memory
 * backend), the answer's JSON text is made once per stored entry and kept
 * in a map keyed by the entry's identity. The storage replaces an entry on
 * every commit and never changes one, so an update makes a new entry, and
 * text kept for the old one is never found again (decision 0068).
 *
 * Only where the answer is provably the entry encoded as is: the resource's
 * own generic store (no kind's storage around it, no subresource), a current
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
 * would grow the heap with the store.
 */

import type { NamingProfile } from '../../machinery/naming';
import { jsonSizeAtMost, slicedAbove } from '../../machinery/json';
import { goJsonFor } from '../../registry/encoding/go-json';
import { GenericStore } from '../../registry/generic/store';
import type { Getter, RestStorage } from '../../registry/rest/capabilities';
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

/** Texts per stored entry, oldest first; a few forms per entry at most (versions, pretty), the first asked for. */
const kept = new Map<object, KeptText[]>();
const maxFormsPerEntry = 4;
/** Characters of text kept in all (~8 MiB at most, less for ASCII text). */
const maxKeptChars = 4 * 1024 * 1024;
let keptChars = 0;

function keep(entry: object, form: KeptText): void {
  let texts = kept.get(entry);
  if (texts === undefined) kept.set(entry, (texts = []));
  else if (texts.length >= maxFormsPerEntry) return;
  texts.push(form);
  keptChars += form.text.length;
  for (const [oldest, forms] of kept) {
    if (keptChars <= maxKeptChars) break;
    kept.delete(oldest);
    for (const f of forms) keptChars -= f.text.length;
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
  // The generic store's own `get` (nothing wraps or replaces it) reads the object and does nothing else.
  if (
    !(storage instanceof GenericStore) ||
    Object.getPrototypeOf(storage) !== GenericStore.prototype ||
    Object.hasOwn(storage, 'get') ||
    req.info.subresource !== '' ||
    storage.rt !== req.rt
  )
    return undefined;
  const peeked = storage.peekCurrent(req.namespace, req.info.name);
  if (peeked === undefined) return undefined;
  const { profile } = out;
  const { pretty } = ctx;
  let text = kept
    .get(peeked.entry)
    ?.find((k) => k.rt === req.rt && k.profile === profile && k.pretty === pretty)?.text;
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
