// Builds the browser bundle (minified, content-hashed, split per route, with a manifest the server reads),
// the server and the CLI. `node esbuild.config.mjs --watch` rebuilds on change and restarts the server.
// Browser tests build only the bundle, unminified with React's development checks, into a directory of their
// own: `--browser-only --dev --public=DIR`.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const browserOnly = args.includes('--browser-only');
const dev = args.includes('--dev');
const publicDir = args.find((arg) => arg.startsWith('--public='))?.slice('--public='.length) ?? 'public';
const outdir = path.join(publicDir, 'assets');

function writeManifest(result) {
  const outputs = result.metafile.outputs;
  const entryFile = Object.keys(outputs).find((file) => outputs[file].entryPoint === 'views/entry.client.tsx');
  const cssFile = Object.keys(outputs).find((file) => outputs[file].entryPoint === 'views/styles.css');
  const toUrl = (file) => '/' + path.relative(publicDir, file).split(path.sep).join('/');
  const preload = outputs[entryFile].imports.filter((imp) => imp.kind === 'import-statement').map((imp) => toUrl(imp.path));
  const manifest = { entry: toUrl(entryFile), css: cssFile ? [toUrl(cssFile)] : [], preload };
  writeFileSync(path.join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

const browser = {
  entryPoints: ['views/entry.client.tsx', 'views/styles.css'],
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
  define: { 'process.env.NODE_ENV': dev ? '"development"' : '"production"' },
  jsx: 'automatic',
  logLevel: 'warning',
  plugins: [{ name: 'manifest', setup: (build) => build.onEnd((result) => result.errors.length === 0 && writeManifest(result)) }],
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

// react-router's package hands Node its development build whatever NODE_ENV says; the built server bundles the
// production build instead (the watcher keeps the development one and its checks).
const server = {
  ...node,
  entryPoints: { server: 'src/server/main.ts', cli: 'cli/index.ts' },
  outdir: 'dist',
  alias: watch ? {} : { 'react-router': './node_modules/react-router/dist/production/index.mjs' },
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

if (browserOnly) {
  await esbuild.build(browser);
} else if (!watch) {
  await Promise.all([esbuild.build(browser), esbuild.build(server)]);
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
  const browserCtx = await esbuild.context(browser);
  const serverCtx = await esbuild.context({ ...server, plugins: [restart] });
  await Promise.all([browserCtx.watch(), serverCtx.watch()]);
  // Stop the server with the watcher, so no orphan keeps the port.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      child?.kill('SIGTERM');
      process.exit(0);
    });
  }
  console.log('watching for changes…');
}
