import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    e2ePublicDir: string;
  }
}

/** E2E_BUNDLE: which build of the browser bundle the tests drive. */
const BUNDLE_FLAGS = new Map([
  ['development', ['--dev']],
  ['production', []],
]);

/**
 * Builds the browser bundle once per run into a directory of its own (parallel runs never share assets): by default
 * with React's development checks on, so hydration mismatches and other warnings reach the console;
 * with E2E_BUNDLE=production as it ships (CI's second pass: the bundle users get is driven too, and Chromium spent
 * 48 s of CPU on it against 70 s on the development build for the same two files).
 */
export default function setup(project: TestProject) {
  const bundle = process.env.E2E_BUNDLE || 'development';
  const flags = BUNDLE_FLAGS.get(bundle);
  if (!flags) throw new Error(`E2E_BUNDLE must be development or production, not ${bundle}`);
  const publicDir = mkdtempSync(path.join(tmpdir(), 'pacer-e2e-public-'));
  try {
    execFileSync(process.execPath, ['esbuild.config.mjs', '--browser-only', ...flags, `--public=${publicDir}`], { stdio: 'inherit' });
  } catch (error) {
    // A failed build leaves no half-written folder behind.
    rmSync(publicDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('e2ePublicDir', publicDir);
  return () => rmSync(publicDir, { recursive: true, force: true });
}
