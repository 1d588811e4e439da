import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Raw SQL only with bindings: a template literal in knex.raw() could splice user input into SQL.
const rawWithBindings = { selector: "CallExpression[callee.property.name='raw'] > TemplateLiteral[expressions.length>0]", message: 'Use bindings (?, ??) in raw SQL, not template literals.' };

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'public/assets', 'coverage', 'data', 'bench/out'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
      'no-restricted-syntax': ['error', rawWithBindings],
    },
  },
  {
    // One way to open a transaction, the one that retries lock failures (docs/conventions.md).
    files: ['src/**/*.{ts,tsx}', 'cli/**/*.ts', 'seeds/**/*.ts'],
    ignores: ['src/db/transaction.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        rawWithBindings,
        { selector: "CallExpression[callee.property.name='transaction']", message: 'Open transactions with withTransaction from src/db/transaction.ts: it runs the work again on a deadlock.' },
      ],
    },
  },
  {
    files: ['cli/**', 'bench/**', 'test/**', 'esbuild.config.mjs', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
