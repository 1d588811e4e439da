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
 * Builds the browser bundle once per run, with React's development checks on so hydration mismatches and
 * other warnings reach the console, into a directory of its own (parallel runs never share assets).
 */
export default function setup(project: TestProject) {
  const publicDir = mkdtempSync(path.join(tmpdir(), 'pacer-e2e-public-'));
  execFileSync(process.execPath, ['esbuild.config.mjs', '--browser-only', '--dev', `--public=${publicDir}`], { stdio: 'inherit' });
  project.provide('e2ePublicDir', publicDir);
  return () => rmSync(publicDir, { recursive: true, force: true });
}
