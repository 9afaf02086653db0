/**
 * A built app served as its own `vite preview` serves it (the build's precompressed files, vite.config.ts),
 * on a free loopback port, for the benches that load a build in Chromium.
 */

import { resolve } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { precompressedPreview } from '../scripts/precompressed';

/** Serves `outDir`; `root` is the project folder Vite resolves from (by default the build's parent). */
export function previewBuild(outDir: string, root = resolve(outDir, '..')): Promise<PreviewServer> {
  return preview({
    configFile: false,
    root,
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1' },
    plugins: [precompressedPreview()],
    logLevel: 'warn',
  });
}
