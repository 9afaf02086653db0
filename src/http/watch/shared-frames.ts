/**
 * Each event encoded once, whatever the number of watchers: a commit
 * reaches every watcher of its resource in one synchronous pass, each with
 * the same object (the served version of a built-in resource is the stored
 * object itself), so remembering the last few frames by object identity,
 * event type and content type lets the 99 other watchers of a change reuse
 * the first one's bytes instead of each running JSON.stringify and a UTF-8
 * encoding of their own. Frames are never mutated once made. An in-process
 * watcher of a JSON watch reads the event's line as text (it parses it, and
 * the bytes would only be decoded back): the text is remembered beside the
 * frame, made first by whichever watcher needs it first.
 */

interface Remembered {
  object: object;
  type: string;
  contentType: string;
  frame: Uint8Array | undefined;
  text: string | undefined;
}

/** Encodings made so far, by event type and the object's namespace: what tests read to see that sharing holds. */
const encodings = new Map<string, number>();

export function frameEncodings(type: string, namespace: string): number {
  return encodings.get(`${type} ${namespace}`) ?? 0;
}

/** Enough for the JSON and protobuf forms of an event and of the one before it. */
const capacity = 4;
const recent: Remembered[] = [];

function remembered(type: string, object: object, contentType: string): Remembered {
  for (const r of recent)
    if (r.object === object && r.type === type && r.contentType === contentType) return r;
  const key = `${type} ${(object as { metadata?: { namespace?: string } }).metadata?.namespace ?? ''}`;
  encodings.set(key, (encodings.get(key) ?? 0) + 1);
  if (recent.length >= capacity) recent.pop();
  const r: Remembered = { object, type, contentType, frame: undefined, text: undefined };
  recent.unshift(r);
  return r;
}

export function sharedFrame(
  type: string,
  object: object,
  contentType: string,
  encode: () => Uint8Array,
): Uint8Array {
  const r = remembered(type, object, contentType);
  return (r.frame ??= encode());
}

/** The event's JSON line as text, without its newline: `text` is the encoding's (`WatchEncoding.text`). */
export function sharedText(type: string, object: object, contentType: string, text: () => string): string {
  const r = remembered(type, object, contentType);
  return (r.text ??= text());
}
