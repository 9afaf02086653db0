// `vite preview` with the build's precompressed files (scripts/precompressed.ts): a text file of a kilobyte or
// more is sent as its `.gz` to a client that accepts gzip, with the right type, a validator and a 304 for it;
// a client that does not accept gzip, and a file too small to have a `.gz`, get what Vite serves without it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preview, type PreviewServer } from 'vite';
import { precompressFiles, precompressedPreview } from '../scripts/precompressed';

let root: string;
let server: PreviewServer;
let base: string;
const script = `export const text = ${JSON.stringify('x'.repeat(4000))};\n`;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'orch-precompressed-'));
  const dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), `<!doctype html><title>t</title>${'<p>x</p>'.repeat(200)}`);
  writeFileSync(join(dist, 'sw.js'), script);
  writeFileSync(join(dist, 'assets', 'small.js'), 'export {};\n');
  writeFileSync(join(dist, 'assets', 'data.bin'), Buffer.alloc(4096, 1));
  expect(precompressFiles(dist)).toBe(2);
  server = await preview({
    configFile: false,
    root,
    build: { outDir: dist },
    preview: { port: 0, host: '127.0.0.1' },
    plugins: [precompressedPreview()],
    logLevel: 'silent',
  });
  base = server.resolvedUrls?.local[0] ?? '';
});

afterAll(async () => {
  await new Promise<void>((done) => server.httpServer.close(() => done()));
  rmSync(root, { recursive: true, force: true });
});

describe('vite preview with precompressed files', () => {
  it('sends a file as its .gz to a client that accepts gzip, and a 304 for its validator', async () => {
    const res = await fetch(`${base}sw.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-type')).toBe('text/javascript');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(await res.text()).toBe(script);
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"\d+-\d+"$/);
    const again = await fetch(`${base}sw.js`, {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const head = await fetch(`${base}sw.js?v=1`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
    expect([head.status, head.headers.get('content-encoding')]).toEqual([200, 'gzip']);
  });

  it('leaves a client without gzip, a small file and a file of another type to Vite', async () => {
    const plain = await fetch(`${base}sw.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);
    const small = await fetch(`${base}assets/small.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect([small.status, small.headers.get('content-encoding')]).toEqual([200, null]);
    expect(await small.text()).toBe('export {};\n');
    const other = await fetch(`${base}assets/data.bin`, { headers: { 'accept-encoding': 'gzip' } });
    expect([other.status, other.headers.get('content-encoding')]).toEqual([200, null]);
    expect((await other.arrayBuffer()).byteLength).toBe(4096);
  });
});
