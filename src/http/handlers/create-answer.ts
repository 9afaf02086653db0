/**
 * A create's answer encoded while its write commits (decision 0086). Once the storage has handed a create to
 * the database, the stored object is final (stamped with its revision) and IndexedDB commits it in its own
 * process for ~0.4 ms; the answer's JSON text (Go's field order) and its `Response` (~100–150 µs together) are
 * made in that wait instead of after it. The text only goes out once the create succeeded, and only for the object the create answers: a
 * failed commit answers its error as before (the text is dropped), and a create that answers any other object
 * (another attempt's, after a retry) is encoded the ordinary way.
 *
 * Only where the ordinary answer is that object encoded as is: the resource's own generic store (a
 * `StoredEntryGetter`, as for kept GET answers: nothing wrapping it changes its answer), the resource's own
 * kind, no custom resource (its served form follows a schema), JSON without protobuf, a small object (a wide
 * one is written in slices by the ordinary path). Storages that do not offer the early look (the memory and
 * etcd backends) simply never call it.
 */

import type { KubeObject } from '../../api/meta';
import { jsonSizeAtMost, slicedAbove } from '../../machinery/json';
import { goJsonFor } from '../../registry/encoding/go-json';
import { isStoredEntryGetter, type RestStorage } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import { baseHeaderList, serialize } from '../respond';

/** The text made from one issued object, with what identifies that object. */
interface Made {
  name: string | undefined;
  namespace: string | undefined;
  uid: string | undefined;
  resourceVersion: string | undefined;
  text: string;
  headers: [string, string][];
  /** The 201 answer with `text` and `headers`, made once. */
  response: Response;
}

export interface EarlyAnswer {
  /** For the storage's `issued`: encodes the object as it will be stored. */
  issued(object: Readonly<KubeObject>): void;
  /** The 201 answer for `created` from the text made early, or undefined when the ordinary path must answer. */
  answer(ctx: RequestContext, created: KubeObject): Response | undefined;
}

/** An early answer for this create, or undefined when its answer is not the stored object encoded as is. */
export function earlyAnswer(
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage,
): EarlyAnswer | undefined {
  const out = ctx.output;
  if (out?.kind !== 'json' || out.protobuf !== undefined) return undefined;
  if (storage.objectKind !== undefined || req.rt.custom || req.rt.crd !== undefined) return undefined;
  if (!isStoredEntryGetter(storage) || req.info.subresource !== '') return undefined;
  const { profile } = out;
  const { pretty } = ctx;
  let made: Made | undefined;
  return {
    issued(object) {
      // A later attempt's object replaces an earlier one's text; a wide one is left to the sliced encoder.
      made = undefined;
      if (!jsonSizeAtMost(object, slicedAbove)) return;
      try {
        // As `respondValue` writes it (shaping makes a new object; the stored one is not changed).
        const text = serialize(
          profile === undefined ? object : goJsonFor(profile).shape(object),
          'json',
          pretty,
        );
        // The answer itself too (making a `Response` is native work of its own): its headers are the request's
        // warnings so far, which the answer checks again, since nothing may add one after the write.
        const headers = baseHeaderList(ctx, 'application/json');
        made = { ...identity(object), text, headers, response: new Response(text, { status: 201, headers }) };
      } catch {
        // The ordinary path encodes it again after the commit, and answers whatever that finds.
      }
    },
    answer(answering, created) {
      if (made === undefined || created.kind === 'Status') return undefined;
      const id = identity(created);
      if (
        id.name !== made.name ||
        id.namespace !== made.namespace ||
        id.uid !== made.uid ||
        id.resourceVersion !== made.resourceVersion
      )
        return undefined;
      const headers = baseHeaderList(answering, 'application/json');
      if (sameHeaders(headers, made.headers)) return made.response;
      return new Response(made.text, { status: 201, headers });
    },
  };
}

function sameHeaders(a: readonly [string, string][], b: readonly [string, string][]): boolean {
  return a.length === b.length && a.every(([name, value], i) => b[i]?.[0] === name && b[i]?.[1] === value);
}

function identity(
  object: Readonly<KubeObject>,
): Pick<Made, 'name' | 'namespace' | 'uid' | 'resourceVersion'> {
  const m = object.metadata;
  return {
    name: m?.name,
    namespace: m?.namespace,
    uid: m?.uid,
    resourceVersion: m?.resourceVersion,
  };
}
