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

/**
 * Builds the browser bundle once per run into a directory of its own (parallel runs never share assets): by default
 * with React's development checks on, so hydration mismatches and other warnings reach the console;
 * with E2E_BUNDLE=production as it ships (CI's second pass: the bundle users get is driven too, and Chromium spends
 * about a third less CPU on it than on the development build).
 */
export default function setup(project: TestProject) {
  const publicDir = mkdtempSync(path.join(tmpdir(), 'pacer-e2e-public-'));
  const development = process.env.E2E_BUNDLE === 'production' ? [] : ['--dev'];
  execFileSync(process.execPath, ['esbuild.config.mjs', '--browser-only', ...development, `--public=${publicDir}`], { stdio: 'inherit' });
  project.provide('e2ePublicDir', publicDir);
  return () => rmSync(publicDir, { recursive: true, force: true });
}
