// Builds the browser bundle (minified, content-hashed, split per route, with a manifest the server reads, and
// gzip and brotli copies of every script and style), the server and the CLI. `node esbuild.config.mjs --watch`
// rebuilds on change and restarts the server. Browser tests build only the bundle, unminified with React's
// development checks, into a directory of their own: `--browser-only --dev --public=DIR`. `--if-stale` (npm start)
// builds only when a source file is newer than the build; `--dist=DIR` puts the server and CLI elsewhere.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { migrationListPlugin } from './scripts/migration-files.mjs';
import { pacerNodeOptions } from './scripts/pacer-node-options.mjs';

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const browserOnly = args.includes('--browser-only');
const dev = args.includes('--dev');
const ifStale = args.includes('--if-stale');
const publicDir = args.find((arg) => arg.startsWith('--public='))?.slice('--public='.length) ?? 'public';
const distDir = args.find((arg) => arg.startsWith('--dist='))?.slice('--dist='.length) ?? 'dist';
const outdir = path.join(publicDir, 'assets');

/** What a build reads: the code of every layer, the settings of the tools, and the installed packages' lock. */
const BUILD_INPUTS = [
  'src',
  'views',
  'cli',
  'migrations',
  'seeds',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'esbuild.config.mjs',
  'scripts/migration-files.mjs',
];

function newestInputMs() {
  let newest = 0;
  const visit = (file) => {
    if (!existsSync(file)) return;
    const stat = statSync(file);
    if (stat.isDirectory()) for (const entry of readdirSync(file)) visit(path.join(file, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const input of BUILD_INPUTS) visit(input);
  return newest;
}

/** True when every output exists and is newer than every input: the build is current. */
function buildIsCurrent() {
  const outputs = ['server', 'cli']
    .flatMap((name) => [`${name}.js`, `${name}-bundle.cjs`, `${name}-bundle.cjs.code-cache`])
    .map((file) => path.join(distDir, file));
  outputs.push(path.join(outdir, 'manifest.json'));
  if (!outputs.every((file) => existsSync(file))) return false;
  return Math.min(...outputs.map((file) => statSync(file).mtimeMs)) > newestInputMs();
}

if (ifStale && !watch && !browserOnly && buildIsCurrent()) {
  console.log('The build is current: nothing to rebuild.');
  process.exit(0);
}

/** An output's own file and, transitively, the files it imports statically (what loads before it runs). */
function staticClosure(outputs, file, into = new Set()) {
  if (into.has(file)) return into;
  into.add(file);
  for (const imp of outputs[file].imports) if (imp.kind === 'import-statement') staticClosure(outputs, imp.path, into);
  return into;
}

/**
 * Which page module each route of views/routes.tsx loads: the route table is bundled for Node with every dynamic
 * import replaced by the imported file's path, and its route ids come from react-router itself (the ids the server's
 * static handler gives the same table).
 */
async function pageModulesByRouteId() {
  const pageRefs = {
    name: 'page-refs',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'dynamic-import'
          ? { path: path.relative('.', path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.tsx'))), namespace: 'page-ref' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'page-ref' }, (args) => ({
        contents: `export const file = ${JSON.stringify(args.path)};`,
        loader: 'js',
      }));
    },
  };
  const file = path.resolve(`.route-table-${process.pid}.mjs`);
  try {
    await esbuild.build({ ...node, entryPoints: ['views/routes.tsx'], outfile: file, sourcemap: false, plugins: [pageRefs] });
    const [{ routes }, { createStaticHandler }] = await Promise.all([import(pathToFileURL(file).href), import('react-router')]);
    const byRouteId = {};
    const visit = async (route) => {
      if (typeof route.lazy === 'function') byRouteId[route.id] = (await route.lazy()).file;
      for (const child of route.children ?? []) await visit(child);
    };
    for (const route of createStaticHandler(routes).dataRoutes) await visit(route);
    return byRouteId;
  } finally {
    rmSync(file, { force: true });
  }
}

async function writeManifest(result) {
  const outputs = result.metafile.outputs;
  const outputOf = (entryPoint) => Object.keys(outputs).find((file) => outputs[file].entryPoint === entryPoint);
  const cssFile = outputOf('views/styles.css');
  const toUrl = (file) => '/' + path.relative(publicDir, file).split(path.sep).join('/');
  /** An entry's script and the chunks it imports (what a page preloads with it). */
  const entryAndImports = (entryFile) => ({
    entry: toUrl(entryFile),
    preload: [...staticClosure(outputs, entryFile)].filter((file) => file !== entryFile).map(toUrl),
  });
  const entryFile = outputOf('views/entry.client.tsx');
  const entryClosure = staticClosure(outputs, entryFile);
  // Each route's page module and its own imports, so the server can preload them with the entry: the browser
  // fetches a page's code in parallel instead of after the entry has run.
  const routes = {};
  for (const [routeId, pageFile] of Object.entries(await pageModulesByRouteId())) {
    const output = outputOf(pageFile);
    if (output) routes[routeId] = [...staticClosure(outputs, output)].filter((file) => !entryClosure.has(file)).map(toUrl);
  }
  const manifest = {
    ...entryAndImports(entryFile),
    css: cssFile ? [toUrl(cssFile)] : [],
    // The auth pages (sign-in, first-run set-up, set-password) load their own entry instead of the app's.
    auth: entryAndImports(outputOf('views/entry.auth.tsx')),
    routes,
  };
  writeFileSync(path.join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

/**
 * Brotli and gzip copies of every script and style, made once here so the server never compresses them; a file so
 * small that a copy would not be smaller gets none (the server then sends the file itself).
 */
function precompress(result) {
  for (const file of Object.keys(result.metafile.outputs)) {
    if (!/\.(js|css)$/.test(file)) continue;
    const body = readFileSync(file);
    const copies = {
      br: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gz: gzipSync(body, { level: 9 }),
    };
    for (const [suffix, copy] of Object.entries(copies)) if (copy.length < body.length) writeFileSync(`${file}.${suffix}`, copy);
  }
}

const browser = {
  entryPoints: ['views/entry.client.tsx', 'views/entry.auth.tsx', 'views/styles.css'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: !dev,
  sourcemap: true,
  metafile: true,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  // The packages' license notices go to a .LEGAL.txt file next to each script (linked from it), not into every
  // chunk a browser downloads before the page runs.
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': dev ? '"development"' : '"production"' },
  jsx: 'automatic',
  logLevel: 'warning',
  plugins: [
    {
      name: 'manifest',
      setup: (build) =>
        build.onEnd(async (result) => {
          if (result.errors.length > 0) return;
          await writeManifest(result);
          if (!dev && !watch) precompress(result);
        }),
    },
  ],
};

const node = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  packages: 'external',
  sourcemap: true,
  jsx: 'automatic',
  logLevel: 'warning',
};

/**
 * The built web server (and the CLI) carries its pure-JavaScript packages (express, knex, React, zod…) inside its
 * one file: Node then reads, resolves and links one module instead of several hundred, which is most of a cold
 * start. Left outside: native addons, packages that find their own files at run time (pino's worker, bullmq's
 * scripts), the big clients the server loads only for some jobs, and the database drivers knex could ask for but we
 * never use.
 */
const SERVER_EXTERNAL = [
  'bcrypt',
  'better-sqlite3',
  'pino',
  'bullmq',
  'ioredis',
  '@aws-sdk/*',
  'nodemailer',
  'file-type',
  'pg',
  'pg-query-stream',
  'pg-native',
  'sqlite3',
  'mysql',
  'mariadb',
  'mariadb/*',
  'oracledb',
  'tedious',
  'mssql',
];
// The web server and the CLI are CommonJS bundles, so that their launchers (dist/server.js, dist/cli.js) can
// compile them with V8's code cache (src/context/code-cache.ts, ADR 0087). Their few dynamic imports (clients loaded
// when first used) become require() calls: a vm script cannot import(). The CLI's package.json lookup uses
// import.meta.url, which a CommonJS bundle has as its own file's URL.
const bundledServer = {
  ...node,
  outdir: distDir,
  // react-router's package hands Node its development build whatever NODE_ENV says; the built server bundles the
  // production build instead (the watcher keeps the development one and its checks).
  alias: watch ? {} : { 'react-router': './node_modules/react-router/dist/production/index.mjs' },
  packages: undefined,
  external: SERVER_EXTERNAL,
  // Less source for V8 to read and compile at start; names stay, so stack traces still say where.
  minifyWhitespace: !watch,
  minifySyntax: !watch,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  supported: { 'dynamic-import': false },
  banner: { js: "var importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': 'importMetaUrl' },
  // The migrations go into the bundle, found by their file names.
  plugins: [migrationListPlugin()],
};
const webServer = {
  ...bundledServer,
  entryPoints: { 'server-bundle': 'src/server/serve.ts' },
  define: { ...bundledServer.define, ...(watch ? {} : { 'process.env.NODE_ENV': '"production"' }) },
};
// `pacer export` and every other command start in ~0.1 s less than from the sources, and less again from the
// cache; the CLI keeps process.env.NODE_ENV as the packages read it at run time.
const cli = { ...bundledServer, entryPoints: { 'cli-bundle': 'cli/command-line.ts' } };
// The launchers, and the webhook sending thread's code, which src/services/webhooks/sender.ts starts by its path.
const launchers = {
  ...node,
  entryPoints: { server: 'src/server/launch.ts', cli: 'cli/launch.ts', 'webhook-sender': 'src/services/webhooks/send-thread.ts' },
  outdir: distDir,
  sourcemap: false,
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

if (browserOnly) {
  await esbuild.build(browser);
} else if (!watch) {
  await Promise.all([esbuild.build(browser), esbuild.build(webServer), esbuild.build(launchers), esbuild.build(cli)]);
  execFileSync(process.execPath, [path.join(distDir, 'server.js'), '--write-code-cache'], { stdio: 'inherit' });
  // V8 refuses a cache made with other V8 flags: the CLI's is made with the options `pacer` starts node with.
  execFileSync(process.execPath, [...pacerNodeOptions(), path.join(distDir, 'cli.js'), '--write-code-cache'], { stdio: 'inherit' });
} else {
  let child;
  const restart = {
    name: 'restart',
    setup: (build) =>
      build.onEnd((result) => {
        if (result.errors.length) return;
        child?.kill('SIGTERM');
        child = spawn(process.execPath, ['--enable-source-maps', 'dist/server.js'], { stdio: 'inherit' });
      }),
  };
  await esbuild.build(launchers);
  const browserCtx = await esbuild.context(browser);
  const serverCtx = await esbuild.context({ ...webServer, plugins: [...webServer.plugins, restart] });
  const cliCtx = await esbuild.context(cli);
  await Promise.all([browserCtx.watch(), serverCtx.watch(), cliCtx.watch()]);
  // Stop the server with the watcher, so no orphan keeps the port.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      child?.kill('SIGTERM');
      process.exit(0);
    });
  }
  console.log('watching for changes…');
}
