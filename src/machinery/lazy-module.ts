/**
 * Code the server loads when first needed instead of at start (the
 * protobuf codec, the state export's addon, CEL with RE2, YAML and X.509,
 * see decisions 0038 and 0039; the controllers with the simulated cluster,
 * 0070). Each is a module named `<name>.lazy.ts` that only re-exports what
 * the server uses, reached through one `LazyModule`.
 * Code awaits `load()` at an asynchronous entry
 * point (the request pipeline, a controller step) and then uses `get()`
 * synchronously. Node imports the module as usual; the browser's service
 * worker, where `import()` is not allowed, installs a loader that evaluates
 * the separately built file (see hosts/browser/worker/lazy-modules.ts), so
 * those bytes stay off the path to the worker's first response.
 */

import { StatusError } from './errors';
import { onceAsync } from './once-async';

/** Loads the module built from `<name>.lazy.ts`; installed by a host that cannot `import()`. */
export type LazyModuleLoader = (name: string) => Promise<unknown>;

let hostLoader: LazyModuleLoader | undefined;

/** Installs the host's loader; call it before the server starts. */
export function setLazyModuleLoader(loader: LazyModuleLoader): void {
  hostLoader = loader;
}

export class LazyModule<T> {
  private value: T | undefined;
  private readonly loadOnce: () => Promise<T>;

  constructor(
    /** The module's file name without `.lazy.ts`. */
    readonly name: string,
    importer: () => Promise<T>,
  ) {
    this.loadOnce = onceAsync(() =>
      (hostLoader !== undefined ? (hostLoader(name) as Promise<T>) : importer()).then(
        (value) => (this.value = value),
        (error: unknown) => {
          // The request that needed it cannot be served now (offline before the worker cached the file):
          // a 503 the client may retry, not an internal error.
          throw new StatusError(
            503,
            'ServiceUnavailable',
            `loading the ${name} library failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        },
      ),
    );
  }

  /** Loads the module once; a failed load is retried by the next call. */
  load(): Promise<T> {
    return this.value !== undefined ? Promise.resolve(this.value) : this.loadOnce();
  }

  get loaded(): boolean {
    return this.value !== undefined;
  }

  /**
   * What `make` builds from the module, built on the first call (which loads the module) and kept: for a
   * registration whose handler lives in the module, so that registering it loads nothing. Callers racing the
   * first load share one build; a failed load or build is tried again by the next call.
   */
  builtOnFirstUse<H>(make: (module: T) => H): () => Promise<H> {
    return onceAsync(() => this.load().then(make));
  }

  /** The loaded module; a caller that did not await `load()` first is a bug. */
  get(): T {
    if (this.value === undefined)
      throw new Error(`the ${this.name} library is used before it was loaded (await its load() first)`);
    return this.value;
  }
}
