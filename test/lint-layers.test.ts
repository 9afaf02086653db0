/**
 * The layer rule of eslint.config.js, run through ESLint itself on snippets at
 * virtual paths: a forbidden layer is caught however the import names it (its
 * folder, its index, a file deep inside), type-only and downward imports pass,
 * and a folder inside a layer that shares a layer's name is not mistaken for
 * that layer. The rule matches import text by the importing file's depth, so
 * this also checks it still fires in the deepest folder of every layer.
 */

import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const rule = '@typescript-eslint/no-restricted-imports';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The messages of the layer rule for `code` linted as if it were the file at `filePath`. */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath, warnIgnored: true });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe('layer imports', () => {
  it.each([
    ['src/ui/x.ts', '../server'],
    ['src/ui/explorer/x.ts', '../../server'],
    ['src/ui/explorer/x.ts', '../../server/'],
    ['src/ui/explorer/x.ts', '../../server/index'],
    ['src/ui/editor/schema/x.ts', '../../../server'],
  ])('%s may not import the server folder as %s', async (file, source) => {
    const errors = await layerErrors(file, `import { createApiServer } from '${source}';\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('src/ui may not import src/server');
  });

  it('rejects a file deep inside a forbidden layer', async () => {
    expect(
      await layerErrors('src/ui/explorer/x.ts', `import { x } from '../../http/watch/stream';\n`),
    ).toHaveLength(1);
    expect(
      await layerErrors('src/client/x.ts', `export { y } from '../registry/generic/store';\n`),
    ).toHaveLength(1);
  });

  it('allows type-only imports of a forbidden layer', async () => {
    expect(await layerErrors('src/ui/x.ts', `import type { ApiServer } from '../server';\n`)).toEqual([]);
    expect(
      await layerErrors('src/ui/explorer/x.ts', `import { type ApiServer } from '../../server/index';\n`),
    ).toEqual([]);
  });

  it.each([
    [
      'src/registry/generic/x.ts',
      `import type { AdmissionChain } from '../../admission/chain';\n`,
      'registry may not import src/admission',
    ],
    [
      'src/admission/plugins/x.ts',
      `import type { Lister } from '../../registry/cache/types';\n`,
      'admission may not import src/registry',
    ],
  ])('keeps %s from even a type-only import across registry and admission', async (file, code, message) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });

  it('allows downward imports and imports within a layer', async () => {
    expect(await layerErrors('src/ui/x.ts', `import { createClient } from '../client';\n`)).toEqual([]);
    expect(
      await layerErrors('src/ui/explorer/x.ts', `import { listWatch } from '../../client/index';\n`),
    ).toEqual([]);
    expect(await layerErrors('src/server/x.ts', `import { dispatch } from '../http/dispatch';\n`)).toEqual(
      [],
    );
  });

  it('does not mistake a folder or file inside a layer for the layer of the same name', async () => {
    // src/ui/lib/server.ts and src/ui/server/ would be UI code, not the server layer.
    expect(await layerErrors('src/ui/lib/x.ts', `import { x } from './server';\n`)).toEqual([]);
    expect(await layerErrors('src/ui/lib/x.ts', `import { x } from '../server/thing';\n`)).toEqual([]);
    expect(await layerErrors('src/client/x.ts', `import { x } from './http';\n`)).toEqual([]);
  });

  it('fires in the deepest folder of every layer', async () => {
    const layers = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    for (const layer of layers) {
      const deepest = deepestFolder(join(root, 'src', layer));
      const depth = relative(join(root, 'src', layer), deepest)
        .split(sep)
        .filter((part) => part !== '').length;
      // Every layer but the UI is forbidden to import the UI; the UI is forbidden the server.
      const forbidden = layer === 'ui' ? 'server' : 'ui';
      const file = `${relative(root, deepest)}/x.ts`;
      const errors = await layerErrors(file, `import { x } from '${'../'.repeat(depth + 1)}${forbidden}';\n`);
      expect(errors, file).toHaveLength(1);
    }
  });
});

function deepestFolder(dir: string): string {
  let deepest = dir;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const candidate = deepestFolder(join(dir, entry.name));
    if (candidate.split(sep).length > deepest.split(sep).length) deepest = candidate;
  }
  return deepest;
}
