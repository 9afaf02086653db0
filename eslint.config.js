// Lint: typescript-eslint's recommended rules plus the layering of
// guide/ARCHITECTURE.md: imports flow downward only (type-only imports are
// fine), and the server core uses neither DOM nor Node APIs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layers = [
  'api',
  'machinery',
  'storage',
  'fieldmanager',
  'cel',
  'auth',
  'admission',
  'registry',
  'http',
  'audit',
  'server',
  'client',
  'controllers',
  'simulation',
  'kubectl',
  'lessons',
  'hosts',
  'ui',
];

// What each layer may import (besides itself). Anything else is a violation.
const allowed = {
  api: [],
  machinery: ['api'],
  storage: ['api', 'machinery'],
  fieldmanager: ['api', 'machinery'],
  cel: ['api', 'machinery'],
  auth: ['api', 'machinery', 'cel'],
  admission: ['api', 'machinery', 'cel', 'auth'],
  // The registry calls admission through machinery/admission (the interfaces), never the plugins.
  registry: ['api', 'machinery', 'storage', 'fieldmanager', 'cel', 'auth'],
  http: ['api', 'machinery', 'storage', 'fieldmanager', 'cel', 'auth', 'admission', 'registry'],
  audit: ['api', 'machinery', 'registry'],
  client: ['api', 'machinery'],
  controllers: ['api', 'machinery', 'client'],
  // What a cluster adds around the server (scheduler, simulated nodes, clock): clients of the API like the controllers.
  simulation: ['api', 'machinery', 'client'],
  // kubectl over the client: shared by the Terminal view and `npm run kubectl`.
  kubectl: ['api', 'machinery', 'client'],
  // The course: lesson data and the engine that checks steps with CEL over what the client reads.
  lessons: ['api', 'machinery', 'cel', 'client', 'kubectl'],
  server: [
    'api',
    'machinery',
    'storage',
    'fieldmanager',
    'cel',
    'auth',
    'admission',
    'registry',
    'http',
    'audit',
    'client',
    'controllers',
    'simulation',
  ],
  hosts: ['api', 'machinery', 'storage', 'server', 'client', 'kubectl'],
  ui: ['api', 'client', 'machinery', 'kubectl', 'lessons'],
};

// Pairs kept apart even for type-only imports: the registry and the admission
// plugins meet only through the interfaces in machinery/admission and
// machinery/lister, as the real server's registry and plugins meet only in
// k8s.io/apiserver/pkg/admission, so neither can grow a cycle through the other.
const noTypeImports = {
  registry: ['admission'],
  admission: ['registry'],
};

// Relative imports are matched as written, so a pattern can only say where an
// import lands if it knows where the importing file sits: a file `depth` folders
// below its layer's folder reaches `src/<from>` as exactly `'../'.repeat(depth + 1)
// + from`. One block per layer and depth therefore names each forbidden layer's
// folder itself (`'../server'`, `'../../server'`) and everything below it
// (`'../../server/index'`), and nothing else: a folder or file inside a layer that
// shares a layer's name (src/hosts/browser/worker/storage.ts) is not mistaken for
// that layer. test/lint-layers.test.ts checks the rule still fires at the
// deepest folder of every layer, so nesting past `maxLayerDepth` fails a test.
const maxLayerDepth = 6;

const layerRules = layers.flatMap((target) =>
  Array.from({ length: maxLayerDepth + 1 }, (_, depth) => {
    const up = '../'.repeat(depth + 1);
    return {
      files: [`src/${target}/${'*/'.repeat(depth)}*.{ts,tsx}`],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: layers
              .filter((from) => from !== target && !allowed[target].includes(from))
              .map((from) => ({
                group: [`${up}${from}`, `${up}${from}/**`],
                allowTypeImports: !(noTypeImports[target] ?? []).includes(from),
                message: `src/${target} may not import src/${from} (imports flow downward; see guide/ARCHITECTURE.md).`,
              })),
          },
        ],
      },
    };
  }),
);

// Node built-ins by exact module name (a bare-name pattern would also match our own folders, e.g. src/http).
const nodeBuiltins = [
  'fs',
  'fs/promises',
  'path',
  'http',
  'https',
  'os',
  'crypto',
  'stream',
  'events',
  'url',
  'buffer',
  'child_process',
  'net',
  'util',
  'worker_threads',
].map((name) => ({
  name,
  message: 'The server core uses no Node APIs.',
}));

// The server core: every layer below the hosts and the UI.
const coreDirs = layers.slice(0, layers.indexOf('hosts'));

const coreImportRule = (extraPatterns) => [
  'error',
  {
    paths: nodeBuiltins,
    patterns: [
      { group: ['node:*'], message: 'The server core uses no Node APIs.' },
      {
        group: ['react', 'react-dom', 'msw', 'msw/*', 'fake-indexeddb', 'fake-indexeddb/*'],
        message: 'Not in the server core.',
      },
      ...extraPatterns,
    ],
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'coverage',
      'test-results',
      'playwright-report',
      'src/registry/generated/*.json',
      '.bench',
      '.scratch',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...layerRules,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: coreDirs.map((d) => `src/${d}/**/*.ts`),
    ignores: ['**/*.test.ts', 'src/storage/conformance.ts'],
    rules: {
      'no-restricted-imports': coreImportRule([]),
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'localStorage',
          'sessionStorage',
          'indexedDB',
          'self',
          'location',
          'process',
          'Buffer',
          'require',
          'global',
          '__dirname',
          'caches',
          'importScripts',
        ].map((name) => ({
          name,
          message: 'The server core uses Web-standard APIs only (no DOM, no Node).',
        })),
      ],
    },
  },
  {
    files: coreDirs.map((d) => `src/${d}/**/*.ts`),
    ignores: ['**/*.test.ts', 'src/storage/conformance.ts', 'src/storage/dexie/**'],
    rules: {
      'no-restricted-imports': coreImportRule([
        { group: ['dexie', 'dexie-*'], message: 'Only src/storage/dexie imports Dexie.' },
      ]),
    },
  },
);
