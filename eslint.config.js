// Flat config. Boundaries (STYLE.md): shared/ imports nothing from electron/, renderer/, electron,
// node:* or better-sqlite3; renderer/ no electron, node:* or better-sqlite3; the service core no electron.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'worker_threads', 'http', 'net'];
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'native/', 'coverage/', 'test-results/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read loosely typed JSON answers; `any` there is not a boundary of the product.
    files: ['test/**/*.ts', '**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['shared/**/*.ts'],
    rules: restrict(
      ['**/electron/**', '**/renderer/**', 'electron', 'better-sqlite3', ...nodeBuiltins],
      'shared/ is pure TypeScript used by both sides',
    ),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict(
        ['electron', 'better-sqlite3', '**/electron/**', ...nodeBuiltins],
        'the renderer talks to the core only through the typed API client',
      ),
    },
  },
  {
    files: ['electron/service/**/*.ts'],
    rules: restrict(
      ['electron', '**/electron/main/**', '**/electron/preload/**'],
      'the service core runs without Electron',
    ),
  },
);
