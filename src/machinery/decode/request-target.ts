/**
 * Dot segments of a raw request target, kept where the client put them. Go
 * hands the kube-apiserver the path as sent; a WHATWG URL removes `.` and
 * `..` segments (their `%2e` spellings too) before anyone reads it. A host
 * that holds the raw target marks each dot segment with `escapeDotSegments`
 * before building its URL, and the request-info parser reads the marks back
 * with `unmarkDotSegment`. The mark is a NUL: a decoded path holding one is
 * never served (it makes the request a non-resource one), so a mark cannot
 * collide with a path a client means; a client sending `%00..` itself is
 * read as `..`, which the server refuses as it refuses `..`.
 */

const mark = '%00';
/** A segment that WHATWG URL parsing would resolve: `.`, `..` and their `%2e` spellings. */
const dotSegment = /^(?:\.|%2e)(?:\.|%2e)?$/i;
const mayHoldDots = /(?:^|\/)(?:\.|%2e)/i;

/** The raw target with every dot segment of its path marked; the query is left alone. */
export function escapeDotSegments(target: string): string {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  if (!mayHoldDots.test(path)) return target;
  const marked = path
    .split('/')
    .map((s) => (dotSegment.test(s) ? `${mark}${s.replace(/%2e/gi, '.')}` : s))
    .join('/');
  return q < 0 ? marked : marked + target.slice(q);
}

/** A decoded path segment with its mark read back (`\0..` is `..`); any other segment as it is. */
export function unmarkDotSegment(segment: string): string {
  if (segment.charCodeAt(0) !== 0) return segment;
  const rest = segment.slice(1);
  return rest === '.' || rest === '..' ? rest : segment;
}
