/**
 * The tag of a container image reference, as the real server's defaulting
 * reads it to choose `imagePullPolicy`: a reference without tag and digest
 * means `latest`; a reference that does not parse has no tag at all.
 */

const pathComponent = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const domainPart =
  /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?$/;
const tagPattern = /^[\w][\w.-]{0,127}$/;
const digestPattern = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;

/** The tag `image` names (`latest` when it names none), or '' when it has only a digest or does not parse. */
export function imageTag(image: string): string {
  let rest = image;
  let digest = '';
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!digestPattern.test(digest)) return '';
  }
  let tag = '';
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!tagPattern.test(tag)) return '';
  }
  if (rest === '' || rest.length > 255) return '';
  const parts = rest.split('/');
  const first = parts[0] ?? '';
  const hasDomain = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (hasDomain && !domainPart.test(first)) return '';
  if (!(hasDomain ? parts.slice(1) : parts).every((p) => pathComponent.test(p))) return '';
  if (tag === '' && digest === '') return 'latest';
  return tag;
}
