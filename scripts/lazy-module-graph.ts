/**
 * The service worker's module graph as its source states it, for the build
 * of its lazy modules (vite.config.ts) and the test that keeps them lazy
 * (test/worker-lazy-imports.test.ts). A lazy module is built as its own
 * script; a module of ours that the worker script holds as well is left out
 * of that script and bound to the worker's own instance instead (the worker
 * publishes it, see hosts/browser/worker/lazy-shared.ts), so there is one
 * copy of each: one `ApiError` class for `instanceof`, one clock, one
 * module state. This walk decides which modules those are, the same way for
 * the build and under the dev server.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The global the worker fills with the shared modules' namespaces, by `sharedKey`. */
export const LAZY_SHARED_GLOBAL = '__orchShared';

/** Import specifiers of one file that carry code (not `import type` / `export type`), static and dynamic. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  const fromClause = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(fromClause)) if (m[2] === undefined) found.push(m[3] as string);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) found.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1] as string);
  return found;
}

/** A relative specifier's file, resolved as the build resolves our TypeScript sources. */
export function resolveLocal(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

/** Every `*.lazy.ts` under `dir`. */
export function lazyModuleFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) lazyModuleFiles(path, out);
    else if (name.endsWith('.lazy.ts')) out.push(path);
  }
  return out;
}

const isLazyFile = (file: string): boolean => file.endsWith('.lazy.ts');

/**
 * Walks our modules breadth-first from `entry` along their code imports (relative specifiers only: npm packages
 * are not ours). `visit` decides for each module reached the first time whether the walk goes on through its
 * imports; lazy modules are never entered (each is its own script).
 */
export function walkImports(entry: string, visit: (file: string) => boolean): void {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i] as string;
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveLocal(file, specifier);
      if (target === undefined || seen.has(target)) continue;
      seen.add(target);
      if (visit(target)) queue.push(target);
    }
  }
}

/** Our modules the worker script holds: reachable from its entry without passing through a lazy module. */
export function workerModules(entry: string): Set<string> {
  const held = new Set<string>([entry]);
  walkImports(entry, (file) => {
    if (isLazyFile(file)) return false;
    held.add(file);
    return true;
  });
  return held;
}

/**
 * What one lazy module's script holds and what it takes from the worker: walking its imports, a module the worker
 * holds is shared (and not walked further: its own imports are the worker's); any other is the script's own.
 */
export function lazyModuleGraph(
  lazyEntry: string,
  worker: ReadonlySet<string>,
): { own: Set<string>; shared: Set<string> } {
  const own = new Set<string>([lazyEntry]);
  const shared = new Set<string>();
  walkImports(lazyEntry, (file) => {
    if (worker.has(file)) {
      shared.add(file);
      return false;
    }
    own.add(file);
    return true;
  });
  return { own, shared };
}

/** A shared module's property name in `LAZY_SHARED_GLOBAL` (an identifier, so the IIFE's globals can name it). */
export function sharedKey(root: string, file: string): string {
  return relative(root, file).replace(/[^A-Za-z0-9]/g, '_');
}
