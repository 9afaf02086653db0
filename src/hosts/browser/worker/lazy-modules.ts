/**
 * Loads the server's lazy libraries in the service worker, where `import()`
 * is not allowed: each was built as a classic script that assigns its
 * exports to one global (vite.config.ts), so its text, from this build's
 * shell cache or else the network, is evaluated in a function scope and the
 * exports returned. Our modules a script shares with the worker are not
 * copied into it: it takes the worker's own instances, which
 * `virtual:orch-lazy-shared` publishes (scripts/lazy-module-graph.ts). The
 * scripts are this origin's own build output, listed
 * in the manifest compiled into this worker, the same trust as `sw.js`.
 */

// First: the scripts read the modules they share with this one from the namespaces it publishes.
import 'virtual:orch-lazy-shared';
import manifest from 'virtual:orch-shell-manifest';
import { cachedShellFile } from './shell-cache';

const LAZY_GLOBAL = '__orchLazy';

/** Scripts fetched ahead of their first use (their text, not run), taken by that use. */
const prefetched = new Map<string, Promise<string | undefined>>();

/**
 * Fetches a lazy library's script now, to be run when it is first loaded: for one a first visit needs at once
 * (on a first install no shell cache holds it yet). A failed prefetch is fetched again by the load.
 */
export function prefetchLazyModule(name: string): void {
  const url = manifest.lazy[name];
  if (url === undefined || prefetched.has(name)) return;
  prefetched.set(
    name,
    fetch(url).then(
      (response) => (response.ok ? response.text() : undefined),
      () => undefined,
    ),
  );
}

export async function loadLazyModule(name: string): Promise<unknown> {
  const url = manifest.lazy[name];
  if (url === undefined) throw new Error(`no lazy library ${name} in this build`);
  const ahead = prefetched.get(name);
  prefetched.delete(name);
  const code = (await ahead) ?? (await fetchScript(url));
  const evaluate = new Function(`${code}\nreturn ${LAZY_GLOBAL};\n//# sourceURL=${url}`) as () => unknown;
  return evaluate();
}

async function fetchScript(url: string): Promise<string> {
  const response = (await cachedShellFile(url)) ?? (await fetch(url));
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return response.text();
}
