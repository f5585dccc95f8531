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

/** The embedded backend's services (`server/<name>/`) and the shared layers they build on. */
const SERVER_SERVICES = ['auth', 'rest', 'storage', 'functions', 'spa'];
const SERVER_SHARED = [
  './http',
  './db',
  './jobs',
  './workers',
  './config',
  './config.ts',
  './context.ts',
];

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
    files: ['server/**/*.{ts,mjs}'],
    plugins: { import: importPlugin },
    rules: {
      // One sub-app per service, built only on the shared layers (http, db, workers, the
      // context and the configuration); no service reaches into another, and the shared layers
      // reach into none. What two services need belongs in a shared layer.
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...SERVER_SERVICES.map((service) => ({
              target: `./server/${service}`,
              from: './server',
              except: [`./${service}`, ...SERVER_SHARED],
            })),
            {
              target: SERVER_SHARED.map((shared) => `./server/${shared.slice(2)}`),
              from: SERVER_SERVICES.map((service) => `./server/${service}`),
            },
          ],
        },
      ],
    },
  },
);
