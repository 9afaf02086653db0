/**
 * Build of the browser app: the React UI from `index.html` (client
 * environment, `dist/`), then each library the server loads on first use
 * (each `<name>.lazy.ts` under `src/`, see machinery/lazy-module.ts) as its own script at
 * `dist/sw-lazy/<name>.js` (the modules of ours it shares with the worker
 * left out and bound to the worker's instances, see lazyShared below), then
 * the service worker as its own module entry at
 * `dist/sw.js` (environment `sw`, one file without the lazy libraries, no hash
 * so its URL never changes). The worker builds last so that the
 * shell-manifest plugin can list the files the other builds emitted and
 * inject them for precaching. Every text file then gets a gzipped twin
 * that `vite preview` serves as is (scripts/precompressed.ts). Under `vite dev` the same plugin serves
 * `/sw.js` from source, uncached, and builds a lazy library when asked.
 */

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';
import {
  LAZY_SHARED_GLOBAL,
  lazyModuleGraph,
  sharedKey,
  workerModules,
} from './scripts/lazy-module-graph.ts';
import { precompressFiles, precompressedPreview } from './scripts/precompressed.ts';

const OUT_DIR = 'dist';
const WORKER_ENTRY = 'src/hosts/browser/worker/sw.ts';
const WORKER_FILE = 'sw.js';
const MANIFEST_ID = 'virtual:orch-shell-manifest';
const RESOLVED_MANIFEST_ID = `\0${MANIFEST_ID}`;
const SHARED_ID = 'virtual:orch-lazy-shared';
const RESOLVED_SHARED_ID = `\0${SHARED_ID}`;
const LAZY_DIR = 'sw-lazy';
/** The global a lazy library's script assigns (an IIFE); the worker's loader returns it. */
const LAZY_GLOBAL = '__orchLazy';
const isLazyModule = (id: string): boolean => /\.lazy(\.ts)?$/.test(id);

export default defineConfig({
  plugins: [react(), shellManifest(), lazyShared(), workerCookieJar(), precompressedPreview()],
  // JSON modules above 10 kB (the built-in kinds' definitions, 0.2 MB of the worker script) as `JSON.parse` of a
  // string: V8 scans a string literal without parsing it and parses JSON faster than the same object literal
  // (0085). Named exports (unused: every JSON import is a default one) would keep each top-level key a literal.
  json: { namedExports: false, stringify: 'auto' },
  build: { outDir: OUT_DIR, target: 'es2022' },
  // The worker is not reachable from index.html; scanning it up front spares the dev server a reload when it first loads.
  optimizeDeps: { entries: ['index.html', WORKER_ENTRY] },
  environments: {
    client: {
      build: {
        outDir: OUT_DIR,
        rolldownOptions: {
          output: {
            // React DOM in a chunk of its own: a load parses its modules on background threads, one per
            // script, and the page runs only once the largest is parsed (~60% of the entry was React DOM).
            codeSplitting: {
              groups: [{ name: 'react-dom', test: /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/ }],
            },
          },
        },
      },
    },
    sw: {
      consumer: 'client',
      build: {
        outDir: OUT_DIR,
        emptyOutDir: false,
        copyPublicDir: false,
        target: 'es2022',
        // One file on purpose (a worker script is fetched and byte-compared as a whole); it holds the whole server.
        chunkSizeWarningLimit: 4096,
        // `ORCH_PROFILE_BUILD=1` keeps names and adds a source map, so a CPU profile of the worker is readable;
        // `ORCH_PROFILE_BUILD=size` adds the map to the minified script, to see where its bytes come from.
        ...(process.env.ORCH_PROFILE_BUILD === '1' ? { minify: false, sourcemap: true } : {}),
        ...(process.env.ORCH_PROFILE_BUILD === 'size' ? { sourcemap: true } : {}),
        rolldownOptions: {
          input: { sw: WORKER_ENTRY },
          // Lazy libraries are separate scripts the worker loads itself; their `import()` stays, unused.
          external: (id) => isLazyModule(id),
          // `charset: 'ascii'`: a script with any character beyond Latin-1 (a `…`, a `μ`) becomes a two-byte
          // string in Blink and V8, decoded and scanned as such (0114).
          output: { format: 'es', entryFileNames: WORKER_FILE, codeSplitting: false, charset: 'ascii' },
        },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      const { client, sw } = builder.environments;
      if (client === undefined || sw === undefined)
        throw new Error('vite.config.ts: the client and sw environments are missing');
      await builder.build(client);
      for (const [name, entry] of lazyModules()) await build(lazyBuildConfig(name, entry, true));
      await builder.build(sw);
      // An unminified profile build (`ORCH_PROFILE_BUILD=1`) keeps its comments' characters: not the shipped script.
      if (process.env.ORCH_PROFILE_BUILD !== '1') assertAscii(resolve(OUT_DIR));
      // Last, so that the shell manifest (made by the worker's build) lists no `.gz`: `vite preview` serves them.
      precompressFiles(resolve(OUT_DIR));
    },
  },
  preview: { port: 4173, strictPort: true },
});

/**
 * The worker script and the lazy scripts are ASCII: `charset: 'ascii'` escapes what it can, and a character it
 * could not (a tagged template's raw text) would make Blink decode and V8 scan the whole script as two-byte
 * text again (0114), so the build fails instead.
 */
function assertAscii(outDir: string): void {
  const scripts = [
    join(outDir, WORKER_FILE),
    ...listFiles(join(outDir, LAZY_DIR)).filter((f) => f.endsWith('.js')),
  ];
  for (const file of scripts) {
    const at = readFileSync(file).findIndex((byte) => byte > 0x7f);
    if (at !== -1) throw new Error(`${relative(outDir, file)}: a non-ASCII byte at ${at} (see assertAscii)`);
  }
}

/** In the worker build, MSW's cookie jar library is replaced by an empty jar (see msw-cookie-jar.ts). */
function workerCookieJar(): Plugin {
  return {
    name: 'orch-worker-cookie-jar',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'sw',
    resolveId(id) {
      return id === 'tough-cookie' ? resolve('src/hosts/browser/worker/msw-cookie-jar.ts') : undefined;
    },
  };
}

/** The shell manifest: build-time list of emitted files for the worker's precache, and `/sw.js` under the dev server. */
function shellManifest(): Plugin {
  return {
    name: 'orch-shell-manifest',
    resolveId(id) {
      return id === MANIFEST_ID ? RESOLVED_MANIFEST_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_MANIFEST_ID) return undefined;
      const config = this.environment.config;
      if (config.command === 'serve')
        return `export default ${JSON.stringify({ version: 'dev', dev: true, urls: [], lazy: lazyUrls('dev') })};`;
      return `export default ${JSON.stringify(manifestOf(resolve(config.root, config.build.outDir)))};`;
    },
    configureServer(server) {
      // A module worker may import source modules; the dev server transforms them on request.
      server.middlewares.use((request, response, next) => {
        const path = request.url?.split('?')[0] ?? '';
        const lazy = lazyModules().get(path.slice(`/${LAZY_DIR}/`.length).replace(/\.js$/, ''));
        if (path.startsWith(`/${LAZY_DIR}/`) && lazy !== undefined) {
          void lazyScript(path, lazy).then(
            (code) => {
              response.setHeader('content-type', 'text/javascript; charset=utf-8');
              response.setHeader('cache-control', 'no-cache');
              response.end(code);
            },
            (error: unknown) => next(error),
          );
          return;
        }
        if (path !== `/${WORKER_FILE}`) return next();
        response.setHeader('content-type', 'text/javascript; charset=utf-8');
        response.setHeader('cache-control', 'no-cache');
        response.end(`import '/${WORKER_ENTRY}';\n`);
      });
    },
  };
}

/** The lazy libraries by name (`<name>.lazy.ts` anywhere under `src/`); a name may be used once. */
function lazyModules(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of listFiles(resolve('src'))) {
    const name = /([^/\\]+)\.lazy\.ts$/.exec(file)?.[1];
    if (name === undefined) continue;
    if (found.has(name))
      throw new Error(`two lazy libraries are named ${name}: ${found.get(name)} and ${file}`);
    found.set(name, file);
  }
  return found;
}

/** Where the worker finds each lazy library; `?v=` keeps an HTTP cache from serving another build's copy. */
function lazyUrls(version: string): Record<string, string> {
  return Object.fromEntries(
    [...lazyModules().keys()].map((name) => [name, `/${LAZY_DIR}/${name}.js?v=${version}`]),
  );
}

/**
 * Our modules each lazy module takes from the worker script instead of holding its own copy (see
 * scripts/lazy-module-graph.ts); computed once per build or dev server from the source's imports.
 */
let sharedByLazy: Map<string, Set<string>> | undefined;
function sharedModules(): Map<string, Set<string>> {
  if (sharedByLazy === undefined) {
    const worker = workerModules(resolve(WORKER_ENTRY));
    sharedByLazy = new Map(
      [...lazyModules()].map(([name, entry]) => [name, lazyModuleGraph(resolve(entry), worker).shared]),
    );
  }
  return sharedByLazy;
}

/**
 * The worker's side of the sharing: a module that puts the namespace of every module a lazy module shares into
 * `LAZY_SHARED_GLOBAL`, which the lazy scripts read (their IIFE's globals). The worker's loader imports it.
 */
function lazyShared(): Plugin {
  return {
    name: 'orch-lazy-shared',
    resolveId(id) {
      return id === SHARED_ID ? RESOLVED_SHARED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_SHARED_ID) return undefined;
      const files = [...new Set([...sharedModules().values()].flatMap((set) => [...set]))].sort();
      // Root-relative ids: the same module instances as the worker's own imports, in the build and the dev server.
      const imports = files.map(
        (file, i) => `import * as m${i} from '/${relative(resolve('.'), file).split(sep).join(posix.sep)}';`,
      );
      const entries = files.map((file, i) => `  ${sharedKey(resolve('.'), file)}: m${i},`);
      return `${imports.join('\n')}\nglobalThis.${LAZY_SHARED_GLOBAL} = {\n${entries.join('\n')}\n};\n`;
    },
  };
}

/** One lazy library as a classic script that assigns its exports to `LAZY_GLOBAL`; shared modules stay out. */
function lazyBuildConfig(name: string, entry: string, write: boolean) {
  const shared = sharedModules().get(name) ?? new Set<string>();
  const root = resolve('.');
  // Asked before and after resolution; only a resolved id names the file (and its key) exactly.
  const sharedFile = (id: string): string | undefined => {
    const file = id.split('?')[0] ?? id;
    return shared.has(file) ? file : undefined;
  };
  return {
    configFile: false as const,
    logLevel: 'warn' as const,
    publicDir: false as const,
    build: {
      outDir: OUT_DIR,
      emptyOutDir: false,
      copyPublicDir: false,
      write,
      target: 'es2022',
      lib: { entry, formats: ['iife' as const], name: LAZY_GLOBAL, fileName: () => `${LAZY_DIR}/${name}.js` },
      ...(process.env.ORCH_PROFILE_BUILD === 'size' ? { sourcemap: true } : {}),
      // A profile build keeps the lazy libraries' names too (the controllers' informers run in one).
      ...(process.env.ORCH_PROFILE_BUILD === '1' ? { minify: false } : {}),
      rolldownOptions: {
        external: (id: string, _importer: string | undefined, isResolved: boolean) =>
          isResolved && sharedFile(id) !== undefined,
        output: {
          globals: (id: string) => `${LAZY_SHARED_GLOBAL}.${sharedKey(root, sharedFile(id) ?? id)}`,
          // ASCII, as the worker script: its text is run by `new Function` (0114).
          charset: 'ascii' as const,
        },
      },
    },
  };
}

const devLazyScripts = new Map<string, Promise<string>>();

/** Under the dev server, a lazy library built in memory on first request. */
function lazyScript(path: string, entry: string): Promise<string> {
  let built = devLazyScripts.get(path);
  if (built === undefined) {
    const name = path.slice(`/${LAZY_DIR}/`.length).replace(/\.js$/, '');
    built = build(lazyBuildConfig(name, entry, false)).then((output) => {
      const first = (Array.isArray(output) ? output[0] : output) as {
        output: { type: string; code?: string }[];
      };
      const chunk = first.output.find((o) => o.type === 'chunk');
      if (chunk?.code === undefined) throw new Error(`building ${path} produced no script`);
      return chunk.code;
    });
    devLazyScripts.set(path, built);
  }
  return built;
}

/** Every file under `outDir` except the worker and source maps, as absolute URLs, plus `/`; versioned by content. */
function manifestOf(outDir: string): {
  version: string;
  dev: false;
  urls: string[];
  lazy: Record<string, string>;
} {
  const files = listFiles(outDir)
    .map((file) => relative(outDir, file).split(sep).join(posix.sep))
    .filter((file) => file !== WORKER_FILE && !file.endsWith('.map'))
    .sort();
  if (!files.includes('index.html'))
    throw new Error(`shell manifest: ${outDir}/index.html is missing; build the client first`);
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(outDir, file)));
  const version = hash.digest('hex').slice(0, 16);
  const lazy = lazyUrls(version);
  const lazyFiles = new Set(Object.values(lazy).map((url) => url.split('?')[0]));
  for (const file of lazyFiles)
    if (!files.includes((file ?? '').slice(1))) throw new Error(`shell manifest: ${file} was not built`);
  return {
    version,
    dev: false,
    // The lazy libraries are precached under the URLs the worker loads them by.
    urls: ['/', ...files.map((file) => (lazyFiles.has(`/${file}`) ? `/${file}?v=${version}` : `/${file}`))],
    lazy,
  };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(path) : [path];
  });
}
