// The service worker's libraries that load when first needed stay lazy: walking the source's imports from the
// worker's entry (static and dynamic, as the worker build inlines both; type-only imports carry no code), no module
// reaches a package that a `*.lazy.ts` module wraps except through that module, which the build leaves out of
// sw.js (see machinery/lazy-module.ts and vite.config.ts). A plain `import { X } from 'protobufjs'` anywhere on the
// worker's path would put the library back on the path to its first response; this test names the importer.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..');
const entry = join(root, 'src/hosts/browser/worker/sw.ts');

/** Import specifiers of one file that carry code (not `import type` / `export type`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  const fromClause = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(fromClause)) if (m[2] === undefined) found.push(m[3] as string);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) found.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1] as string);
  return found;
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

function lazyModules(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) lazyModules(path, out);
    else if (name.endsWith('.lazy.ts')) out.push(path);
  }
  return out;
}

describe('the worker script leaves its lazy libraries out', () => {
  it('no module on the worker’s path imports a package a lazy module wraps', () => {
    const lazyPackages = new Map<string, string>();
    for (const file of lazyModules(join(root, 'src')))
      for (const s of importsOf(file))
        if (!s.startsWith('.')) lazyPackages.set(packageOf(s), relative(root, file));
    expect(lazyPackages.size).toBeGreaterThan(0);

    const seen = new Set<string>([entry]);
    const queue = [entry];
    const violations: string[] = [];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) {
          const lazy = lazyPackages.get(packageOf(specifier));
          if (lazy !== undefined)
            violations.push(`${relative(root, file)} imports ${specifier} (load it through ${lazy})`);
          continue;
        }
        const target = resolveLocal(file, specifier);
        // A lazy module is built as its own script; what it imports is not on the worker's path.
        if (target === undefined || target.endsWith('.lazy.ts') || seen.has(target)) continue;
        seen.add(target);
        queue.push(target);
      }
    }
    // The walk really covered the server (not a wrong entry path ending it early).
    expect(seen.size).toBeGreaterThan(500);
    expect(violations).toEqual([]);
  });
});
