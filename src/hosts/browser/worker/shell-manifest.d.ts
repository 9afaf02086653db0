/**
 * The build's list of app-shell URLs, injected into the worker bundle by the
 * Vite plugin in `vite.config.ts` (empty and `dev: true` under `vite dev`).
 */
declare module 'virtual:orch-shell-manifest' {
  const manifest: {
    /** Changes whenever any shell file changes; names the cache. */
    version: string;
    /** True under the dev server: no shell caching, so edits show up at once. */
    dev: boolean;
    /** Absolute paths to precache, including `/` and `/index.html`. */
    urls: string[];
    /** The lazy libraries' script URLs by name (see machinery/lazy-module.ts). */
    lazy: Record<string, string>;
  };
  export default manifest;
}

/**
 * Publishes the namespaces of the modules the lazy scripts share with the worker script (vite.config.ts); imported
 * for that effect only.
 */
declare module 'virtual:orch-lazy-shared' {}
