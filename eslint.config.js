import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
      // Imports flow one way: lib and components -> features -> app. A feature never reaches
      // into another feature (after bulletproof-react).
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/features', from: './src/app' },
            { target: './src/lib', from: ['./src/features', './src/app', './src/components'] },
            { target: './src/components', from: ['./src/features', './src/app'] },
            // A feature imports only itself, except the documented reuse of the documents
            // feature (preview, download) and of the category document list.
            ...Object.entries({
              auth: [],
              branding: [],
              dashboard: ['documents', 'organization'],
              documents: [],
              'category-documents': ['documents'],
              operations: ['documents', 'category-documents'],
              departments: ['documents', 'category-documents'],
              users: [],
              organization: [],
              invitations: [],
              oauth: [],
            }).map(([feature, allowed]) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`, ...allowed.map((name) => `./${name}`)],
            })),
          ],
        },
      ],
    },
  },
);
