// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The layer order (README, "How it is built"): a folder of src/ may import only the folders
 * listed for it, so every arrow points down. `shared` is the contract everyone speaks; the
 * entry points (cli, electron, mcp, demo, producer) sit on top, and nothing imports them but
 * the CLI. The renderer sees only the contract: src/shared and src/canonical as code, src/api
 * for its types.
 */
export const LAYERS = {
  shared: [],
  canonical: ['shared'],
  // Redaction (issue 40): the proxy and the server's ingest both redact, with one engine.
  redact: ['shared'],
  metrics: ['shared'],
  store: ['shared', 'canonical', 'metrics'],
  ingest: ['shared', 'canonical', 'metrics', 'store', 'redact'],
  api: ['shared', 'canonical', 'metrics', 'store', 'ingest', 'redact'],
  server: ['shared', 'canonical', 'metrics', 'store', 'ingest', 'api', 'redact'],
  host: ['shared', 'canonical', 'metrics', 'store', 'ingest', 'api', 'server', 'redact'],
  // The producer is a self-contained client: it shares the contract, never the receiver's code.
  producer: ['shared', 'canonical'],
  demo: ['shared', 'canonical', 'producer'],
  // The MCP proxy measures as the producer does; only the CLI starts it.
  proxy: ['shared', 'canonical', 'server', 'producer', 'redact'],
  mcp: ['shared', 'canonical', 'metrics', 'store', 'ingest', 'api', 'server', 'host', 'redact'],
  electron: [
    'shared',
    'canonical',
    'metrics',
    'store',
    'ingest',
    'api',
    'server',
    'host',
    'redact',
  ],
  cli: [
    ...['shared', 'canonical', 'metrics', 'store', 'ingest', 'api', 'server', 'host', 'redact'],
    ...['producer', 'demo', 'mcp', 'proxy'],
  ],
};
const FOLDERS = Object.keys(LAYERS);

/** Core code must run in plain Node: only the thin shell in src/electron may import electron. */
const electronPaths = [{ name: 'electron', message: 'Only src/electron may import electron.' }];
const electronPatterns = [
  { group: ['electron/*'], message: 'Only src/electron may import electron.' },
];

/** A relative import of `folder` from inside src/ (`../store/index.js`, `../../store`). */
const fromSrc = (folder) => `^(\\.\\./)+${folder}(/|$)`;
/** An import of `src/folder` from outside src/ (`../../../src/store/index`). */
const intoSrc = (folder) => `(^|/)src/${folder}(/|$)`;

/**
 * Inside the store, reads never import the write side (issue 39): a query that maintained
 * rollups did write work on whichever connection read, which a read thread's read-only
 * connection cannot; the writer brings data up to date before a read is asked.
 */
const QUERY_FILES = ['src/store/metrics/queries.ts', 'src/store/metrics/queries/**/*.ts'];
const readsOnly = [
  {
    regex: '(^|/)(maintain|derived|derived-queue|write|spool|forget)(/|\\.js$|$)',
    message:
      'Metrics queries only read: the writer maintains rollups before a read is asked (Store.flushDerived), so queries never import the write side.',
  },
];

/** The rule for one src/ folder: every folder not below it is off limits (and `extra`). */
function layerRule(folder, extra = []) {
  const forbidden = FOLDERS.filter((f) => f !== folder && !LAYERS[folder].includes(f));
  return {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: folder === 'electron' ? [] : electronPaths,
        patterns: [
          ...(folder === 'electron' ? [] : electronPatterns),
          ...(folder === 'store'
            ? []
            : [
                {
                  regex: '(^|/)store/connection(\\.js)?$',
                  message: "The store owns its connection: use the store's own functions.",
                },
              ]),
          ...extra,
          ...forbidden.map((f) => ({
            regex: fromSrc(f),
            message: `src/${folder} may import only ${LAYERS[folder].map((l) => `src/${l}`).join(', ') || 'nothing from src'} (layer order, README "How it is built").`,
          })),
        ],
      },
    ],
  };
}

/** The renderer: src/shared and src/canonical as code, src/api as types only, nothing else. */
const rendererRule = {
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths: electronPaths,
      patterns: [
        ...electronPatterns,
        {
          regex: intoSrc('api'),
          allowTypeImports: true,
          message: 'The renderer may import src/api for its types only (import type).',
        },
        ...FOLDERS.filter((f) => !['shared', 'canonical', 'api'].includes(f)).map((f) => ({
          regex: intoSrc(f),
          message: 'The renderer may import only src/shared, src/canonical and src/api types.',
        })),
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'out', 'release', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: electronPaths, patterns: electronPatterns },
      ],
    },
  },
  ...FOLDERS.map((folder) => ({ files: [`src/${folder}/**/*.ts`], rules: layerRule(folder) })),
  { files: QUERY_FILES, rules: layerRule('store', readsOnly) },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      ...rendererRule,
    },
  },
);
