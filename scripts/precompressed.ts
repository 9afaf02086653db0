/**
 * The build's text files gzipped once at build time, and served as they are
 * by `vite preview`, as a static host serves precompressed assets. Vite's
 * preview otherwise gzips every response as it goes (level 6): for the
 * 0.95 MB worker script that is ~30 ms of the server's CPU on this machine
 * before the last byte leaves, and on a first visit the browser compiles the
 * worker only once the whole script is in (0103). A request that does not
 * accept gzip, or a file without its `.gz`, falls through to Vite's own
 * static serving unchanged.
 */

import { createReadStream, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Content types of the files precompressed (what `vite preview` sends for them). */
const contentTypes: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain',
};

/** Below this a gzip header costs more than it saves (the preview's compression middleware uses the same). */
const minimumBytes = 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Writes `<file>.gz` beside every text file of `dir` of at least a kilobyte; returns how many. */
export function precompressFiles(dir: string): number {
  let written = 0;
  for (const file of filesUnder(dir)) {
    if (contentTypes[extname(file)] === undefined) continue;
    const body = readFileSync(file);
    if (body.length < minimumBytes) continue;
    writeFileSync(`${file}.gz`, gzipSync(body, { level: constants.Z_BEST_COMPRESSION }));
    written++;
  }
  return written;
}

type Next = (error?: unknown) => void;

/** Connect middleware answering GET and HEAD of `dir`'s files from their `.gz` when the client accepts gzip. */
export function servePrecompressed(dir: string) {
  const root = resolve(dir);
  return (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.url === undefined) return next();
    if (!/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return next();
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://preview.invalid').pathname);
    } catch {
      return next();
    }
    const type = contentTypes[extname(path)];
    const file = resolve(root, `.${path}`);
    if (type === undefined || !file.startsWith(root + sep)) return next();
    let size: number;
    let mtime: number;
    try {
      const stat = statSync(`${file}.gz`);
      if (!stat.isFile()) return next();
      ({ size, mtimeMs: mtime } = stat);
    } catch {
      return next();
    }
    const etag = `W/"${size}-${Math.floor(mtime)}"`;
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', String(size));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(`${file}.gz`).on('error', next).pipe(res);
  };
}

/** `vite preview` serving the build's precompressed files ahead of its own compression (see above). */
export function precompressedPreview(): Plugin {
  return {
    name: 'orch-precompressed-preview',
    configurePreviewServer(server) {
      // Added here, before the preview's compression and static middlewares.
      server.middlewares.use(servePrecompressed(resolve(server.config.root, server.config.build.outDir)));
    },
  };
}
