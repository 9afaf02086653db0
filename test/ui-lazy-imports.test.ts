// The page's parts that its first screen does not show stay out of the main chunk: walking the UI's static imports
// from its entry (a dynamic `import()` is a chunk of its own, which is the point; type-only imports carry no code),
// none of the modules below is reached. A plain `import { DeleteConfirm } from './DeleteConfirm'` anywhere on that
// path would put it back into the script every reload parses (decision 0082); this test names the importer.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveLocal } from '../scripts/lazy-module-graph';

const root = resolve(__dirname, '..');
// index.html's module script imports these two (the composition root).
const entries = ['src/ui/main.tsx', 'src/hosts/browser/register.ts'].map((file) => join(root, file));

/** Loaded with `React.lazy` / `import()` only: the views other than the explorer, and the explorer's dialogs. */
const lazyParts = [
  'src/ui/explorer/DeleteConfirm.tsx',
  'src/ui/explorer/ObjectPanel.tsx',
  'src/ui/identity/AccessExplanation.tsx',
  'src/ui/identity/GrantPanel.tsx',
  'src/ui/editor/EditorView.tsx',
  'src/ui/learn/LearnView.tsx',
  'src/ui/watch/WatchView.tsx',
  'src/ui/console/ConsoleView.tsx',
  'src/ui/identity/IdentityView.tsx',
  'src/ui/terminal/TerminalView.tsx',
  'src/ui/workshop/WorkshopView.tsx',
  'src/ui/lab/LabView.tsx',
  'src/ui/trace/TraceView.tsx',
  'src/ui/webhooks/WebhooksView.tsx',
  'src/ui/server/ServerView.tsx',
];

/** Static code imports of one file (not `import type` / `export type`, not `import()`). */
function staticImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/g))
    if (m[2] === undefined) found.push(m[3] as string);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) found.push(m[1] as string);
  return found;
}

/** Each module of ours reached from the entries by static imports, with the module that first imported it. */
function mainChunkModules(): Map<string, string> {
  const importer = new Map<string, string>(entries.map((entry) => [entry, '(entry)']));
  const queue = [...entries];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i] as string;
    for (const specifier of staticImportsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveLocal(file, specifier);
      if (target === undefined || importer.has(target)) continue;
      importer.set(target, file);
      queue.push(target);
    }
  }
  return importer;
}

describe("the UI's first-screen code", () => {
  const reached = mainChunkModules();

  it('reaches the explorer (the walk follows the imports)', () => {
    expect(reached.has(join(root, 'src/ui/explorer/ExplorerView.tsx'))).toBe(true);
    expect(reached.has(join(root, 'src/ui/explorer/CreatePanel.tsx'))).toBe(true);
  });

  it.each(lazyParts)('does not import %s statically', (part) => {
    const file = join(root, part);
    const by = reached.get(file);
    expect(by === undefined ? undefined : relative(root, by), `${part} is imported statically by`).toBe(
      undefined,
    );
  });
});
