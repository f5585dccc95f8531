import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The SPA's feature folders (`src/features/<name>/`), read so that a new feature is held too. */
const SPA_FEATURES = readdirSync(new URL('./src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * What each part of the embedded backend (`server/<folder>/` or a file at the top of `server/`)
 * may import besides itself. Imports flow one way: from the entry and the registries at the top
 * (which name every feature) through the features and the services to the shared layers and the
 * configuration at the ground, so that an import loop between two parts fails `npm run lint`.
 * A new folder needs a row (checked below); what two parts need belongs in a lower one.
 */
const SERVER_SHARED = [
  'config',
  'config.ts',
  'files',
  'db',
  'workers',
  'http',
  'jobs',
  'context.ts',
];
const SERVER_SERVICES = ['auth', 'rest', 'storage', 'functions', 'spa'];
const SERVER_FEATURES = [
  'backup',
  'branding',
  'mail',
  'reminders',
  'search',
  'transfer',
  'trash',
  'housekeeping',
  'links',
  'previews',
];
const SERVER_PARTS = {
  // The ground: settings, private files, the database, the pools, HTTP plumbing, the job queue.
  config: [],
  files: [],
  'config.ts': ['config'],
  // What the server's links name when [auth] site_url is not set, for the start-up log.
  'site-url.ts': ['config.ts'],
  // The flags node runs the server with, for whatever starts it as a process.
  'node-flags.ts': [],
  // How a new thread or process loads the server's TypeScript (the database worker, the pools).
  'import-typescript.mjs': [],
  db: ['config.ts', 'files', 'import-typescript.mjs'],
  workers: ['db', 'import-typescript.mjs'],
  http: ['db', 'workers'],
  jobs: ['db'],
  'context.ts': ['config.ts', 'db', 'http', 'jobs', 'workers'],
  // One sub-app per service, built only on the shared layers; no service reaches into another.
  ...Object.fromEntries(SERVER_SERVICES.map((service) => [service, SERVER_SHARED])),
  // Features built on the services: their files (storage) and accounts (auth, for its mail).
  backup: [...SERVER_SHARED, 'storage'],
  // The organisation's logo: uploaded images made into it in the background processes.
  branding: [...SERVER_SHARED, 'storage'],
  // functions: the key of organisations' SMTP passwords is the function secret that seals them.
  mail: [...SERVER_SHARED, 'storage', 'auth', 'functions'],
  reminders: SERVER_SHARED,
  search: [...SERVER_SHARED, 'storage'],
  transfer: [...SERVER_SHARED, 'storage'],
  // The purge of a document's files removes its rendered previews too.
  trash: [...SERVER_SHARED, 'storage', 'previews'],
  housekeeping: [...SERVER_SHARED, 'storage'],
  // Word and Excel previews rendered in the background processes, and the previews' addresses.
  previews: [...SERVER_SHARED, 'storage'],
  // Share links and document requests: public pages on the services, with their own settings.
  links: [...SERVER_SHARED, 'storage'],
  sharing: [...SERVER_SHARED, 'storage', 'auth', 'links', 'previews'],
  requests: [...SERVER_SHARED, 'storage', 'auth', 'links'],
  // The top: the registries that name every feature's jobs and file tasks, the app, the entry.
  'file-tasks.ts': ['workers', 'transfer', 'branding'],
  // …and the one file store (storage/open-file-store.ts) the jobs that read files share.
  'background-work.ts': [...SERVER_SHARED, ...SERVER_FEATURES, 'storage', 'file-tasks.ts'],
  'app.ts': [...SERVER_SHARED, ...SERVER_SERVICES, 'backup', 'sharing', 'requests', 'previews'],
  'server.ts': [
    ...SERVER_SHARED,
    ...SERVER_FEATURES,
    'app.ts',
    'background-work.ts',
    'file-tasks.ts',
  ],
  'index.ts': ['config.ts', 'server.ts', 'site-url.ts'],
};

// Fail fast, as server/config.ts does: every part of server/ has a row, and the rows allow no
// loop (a part reaching itself through what it may import).
for (const entry of readdirSync(new URL('./server', import.meta.url), { withFileTypes: true })) {
  const part = entry.name;
  if (
    (entry.isDirectory() || part.endsWith('.ts')) &&
    !part.startsWith('.') &&
    !(part in SERVER_PARTS)
  ) {
    throw new Error(`eslint.config.js: server/${part} has no row in SERVER_PARTS`);
  }
}
function reachesItself(part, path = []) {
  if (path.includes(part)) return [...path, part];
  for (const below of SERVER_PARTS[part]) {
    const loop = reachesItself(below, [...path, part]);
    if (loop) return loop;
  }
  return null;
}
for (const part of Object.keys(SERVER_PARTS)) {
  const loop = reachesItself(part);
  if (loop) throw new Error(`eslint.config.js: SERVER_PARTS loops: ${loop.join(' -> ')}`);
}

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'coverage',
      '.data',
      '.tmp',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Imports flow one way: config, lib and components -> features -> app (after
      // bulletproof-react). A feature imports only itself, lib, components and config (its
      // tests also the harness in testing); never another feature and never app. A page that
      // combines features lives in app/routes and hands each feature what it needs as props.
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...SPA_FEATURES.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src',
              except: [`./features/${feature}`, './lib', './components', './config', './testing'],
            })),
            { target: './src/lib', from: ['./src/features', './src/app', './src/components'] },
            { target: './src/components', from: ['./src/features', './src/app'] },
            { target: './src/config', from: ['./src/features', './src/app', './src/components'] },
          ],
        },
      ],
    },
  },
  {
    files: ['e2e/**/*.ts'],
    ignores: ['e2e/support/test.ts'],
    rules: {
      // Every spec's `test` comes from e2e/support/test.ts (or extends it): a spec on Playwright's
      // own `test` has other worker fixtures, and the run would stop both workers and their
      // browsers and start new ones each time it moved between that spec and the others.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: 'Import `test` from e2e/support/test.ts (or a `test` that extends it).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.{ts,mjs}'],
    plugins: { import: importPlugin },
    // no-cycle follows the imports into each file: it reads TypeScript with the TypeScript
    // parser, and no package (node_modules holds no import of ours).
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import/ignore': ['node_modules'],
    },
    rules: {
      // No loop of imports between files, inside a part too (the zones below see only parts).
      'import/no-cycle': ['error', { ignoreExternal: true }],
      // Each part of server/ imports only the parts below it (SERVER_PARTS above).
      'import/no-restricted-paths': [
        'error',
        {
          zones: Object.entries(SERVER_PARTS).map(([part, below]) => ({
            target: `./server/${part}`,
            from: './server',
            except: [`./${part}`, ...below.map((allowed) => `./${allowed}`)],
            message: `server/${part} may import only ${below.join(', ') || 'itself'} (SERVER_PARTS in eslint.config.js): imports flow down, never in a loop`,
          })),
        },
      ],
    },
  },
);
