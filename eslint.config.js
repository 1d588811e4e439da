import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Raw SQL only with bindings: a template literal in knex.raw() could splice user input into SQL.
const rawWithBindings = {
  selector: "CallExpression[callee.property.name='raw'] > TemplateLiteral[expressions.length>0]",
  message: 'Use bindings (?, ??) in raw SQL, not template literals.',
};

/**
 * Layers: who may import whom (../shared/design/architecture.md, docs/conventions.md "Layout"). Each zone says:
 * files under `target` may not import from `from`, except the `except` paths (relative to `from`).
 * eslint-plugin-import-x's no-restricted-paths judges the file an import resolves to, so it sees through any
 * spelling of the path; the TypeScript resolver maps our `./x.js` specifiers to the `.ts` sources. (It supports
 * ESLint 10 and Node 20; dependency-cruiser would need Node 22.) test/unit/layer-rules.test.ts proves each zone.
 */
const SRC_OUTSIDE_SHARED = [
  './src/api',
  './src/config',
  './src/context',
  './src/db',
  './src/integrations',
  './src/server',
  './src/services',
  './src/ssr',
];
const layerZones = [
  // Browser-safe code imports nothing of ours outside itself.
  {
    target: './src/shared',
    from: [...SRC_OUTSIDE_SHARED, './views', './cli', './migrations', './seeds'],
    message: 'src/shared is browser-safe: it imports only src/shared.',
  },
  // The screens see the server only through src/shared (schemas, wire types, the record-type vocabulary).
  {
    target: './views',
    from: [...SRC_OUTSIDE_SHARED, './cli', './migrations', './seeds'],
    message: 'views import only src/shared and views.',
  },
  {
    target: ['./src/services', './src/integrations'],
    from: ['./views', './src/api', './src/server', './src/ssr', './src/context', './cli'],
    message: 'Services and integrations never import views, api, server, ssr, the context builder or the CLI.',
  },
  // Integrations are HTTP clients; what they share with the services lives in src/shared, or the services pass it in.
  { target: './src/integrations', from: './src/services', message: 'Integrations never import services.' },
  // The CLI calls services with the context src/context builds, never the web server.
  {
    target: './cli',
    from: ['./src/server', './src/api', './src/ssr', './src/integrations', './views'],
    message: 'The CLI imports services and src/context, never the web server.',
  },
  // src/db is the bottom layer: it knows Knex and the migrations, never the domain above it.
  {
    target: './src/db',
    from: ['./src/services', './src/integrations', './src/api', './src/server', './src/ssr', './src/context', './views', './cli'],
    message: 'src/db imports nothing above it (services, api, server…).',
  },
  // The migration runner (src/db/migrate.ts) needs the list of migrations; nothing else in src/db reaches into them.
  {
    target: './src/db',
    from: './migrations',
    except: ['./index.ts'],
    message: 'src/db imports only the migration list (migrations/index.ts).',
  },
  // Migrations are frozen in time (docs/decisions/0007): they never import live code.
  { target: './migrations', from: ['./src', './views', './cli', './seeds'], message: 'Migrations never import live code.' },
  // The API calls services; the web server hands it the HTTP plumbing it owns (session start, request locale, the
  // not-found answer) as createApiRouter's parameter (src/api/http-plumbing.ts).
  {
    target: './src/api',
    from: ['./views', './src/server', './src/ssr', './src/integrations', './src/db', './cli'],
    message:
      'The API calls services; it never imports views, the web server, ssr, integrations or the database (src/server hands it its plumbing).',
  },
  // The web server hosts the rendering: it imports ssr, never the other way (the request locale is src/shared's).
  {
    target: './src/ssr',
    from: ['./src/server', './src/integrations', './src/db', './cli'],
    message:
      'SSR calls services through the read routes; it never imports the web server (src/server hands it what it needs), integrations or the database.',
  },
];

// `import { z } from 'zod'` puts all of zod in the browser's first load; the namespace import lets esbuild
// drop what the page does not use (docs/decisions/0060-performance-against-the-limit.md).
const zodNamespaceOnly = {
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[importKind!='type']",
  message: "Import zod as a namespace (import * as z from 'zod'), so the browser bundle keeps only what it uses.",
};

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
      'no-restricted-syntax': ['error', rawWithBindings, zodNamespaceOnly],
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
        zodNamespaceOnly,
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message: 'Open transactions with withTransaction from src/db/transaction.ts: it runs the work again on a deadlock.',
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'views/**/*.{ts,tsx}', 'cli/**/*.ts', 'migrations/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones }] },
  },
  {
    // Imports that climb two folders or more use the path aliases of tsconfig.json (@shared/…, @views/…).
    files: ['**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./\\.\\./', message: 'Use a path alias (@shared/…, @services/…, @views/…) instead of climbing two folders.' },
          ],
        },
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
