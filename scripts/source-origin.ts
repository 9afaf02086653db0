/**
 * Where a source-mapped byte of a built script comes from, for the scripts
 * that weigh a bundle by origin: an npm package by name, our own code by its
 * first `depth` folders under `src/`.
 */

export function originOf(source: string | null, depth: number): string {
  if (source === null) return '(unmapped)';
  const path = source.replace(/\\/g, '/');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg !== null) return `npm:${pkg[1]}`;
  const src = /(?:^|\/)src\/(.*)$/.exec(path);
  if (src === null) return path;
  const parts = (src[1] ?? '').split('/');
  return parts.length <= depth ? parts.join('/') : `${parts.slice(0, depth).join('/')}/`;
}
