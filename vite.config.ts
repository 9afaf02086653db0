/**
 * Build of the browser app: the React UI from `index.html` (client
 * environment, `dist/`), then the service worker as its own module entry at
 * `dist/sw.js` (environment `sw`, one self-contained file, no hash so its URL
 * never changes). The worker builds second so that the shell-manifest plugin
 * can list the files the client build emitted and inject them for precaching.
 * Under `vite dev` the same plugin serves `/sw.js` from source, uncached.
 */

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const OUT_DIR = 'dist';
const WORKER_ENTRY = 'src/hosts/browser/worker/sw.ts';
const WORKER_FILE = 'sw.js';
const MANIFEST_ID = 'virtual:orch-shell-manifest';
const RESOLVED_MANIFEST_ID = `\0${MANIFEST_ID}`;

export default defineConfig({
  plugins: [react(), shellManifest()],
  build: { outDir: OUT_DIR, target: 'es2022' },
  // The worker is not reachable from index.html; scanning it up front spares the dev server a reload when it first loads.
  optimizeDeps: { entries: ['index.html', WORKER_ENTRY] },
  environments: {
    client: {
      build: { outDir: OUT_DIR },
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
        rolldownOptions: {
          input: { sw: WORKER_ENTRY },
          output: { format: 'es', entryFileNames: WORKER_FILE, codeSplitting: false },
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
      await builder.build(sw);
    },
  },
  preview: { port: 4173, strictPort: true },
});

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
        return `export default ${JSON.stringify({ version: 'dev', dev: true, urls: [] })};`;
      return `export default ${JSON.stringify(manifestOf(resolve(config.root, config.build.outDir)))};`;
    },
    configureServer(server) {
      // A module worker may import source modules; the dev server transforms them on request.
      server.middlewares.use((request, response, next) => {
        if (request.url?.split('?')[0] !== `/${WORKER_FILE}`) return next();
        response.setHeader('content-type', 'text/javascript; charset=utf-8');
        response.setHeader('cache-control', 'no-cache');
        response.end(`import '/${WORKER_ENTRY}';\n`);
      });
    },
  };
}

/** Every file under `outDir` except the worker and source maps, as absolute URLs, plus `/`; versioned by content. */
function manifestOf(outDir: string): { version: string; dev: false; urls: string[] } {
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
  return {
    version: hash.digest('hex').slice(0, 16),
    dev: false,
    urls: ['/', ...files.map((file) => `/${file}`)],
  };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(path) : [path];
  });
}
