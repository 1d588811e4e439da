import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; engines: { node: string } };

describe('the release number', () => {
  it('is a semantic version, and CHANGELOG.md opens with its entry', () => {
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    const changelog = read('CHANGELOG.md');
    const entries = [...changelog.matchAll(/^## \[(.+?)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)];
    expect(entries[0]?.[1]).toBe(pkg.version);
    expect(entries[0]?.[2]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Keep a Changelog: the entry groups its lines under these headings (an "Unreleased" entry never ships).
    const top = changelog.slice(entries[0]!.index, entries[1]?.index);
    const sections = [...top.matchAll(/^### (.+)$/gm)].map((match) => match[1]);
    expect(sections).toEqual(['Added', 'Changed', 'Fixed', 'Security']);
    expect(changelog).not.toMatch(/^## \[Unreleased\]/im);
  });

  it('is the same in package-lock.json and in the image labels', () => {
    const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, { version?: string }> };
    expect([lock.version, lock.packages['']?.version]).toEqual([pkg.version, pkg.version]);
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain(`org.opencontainers.image.version="${pkg.version}"`);
    for (const label of ['title', 'description', 'source', 'created']) expect(dockerfile).toContain(`org.opencontainers.image.${label}=`);
    // The image runs the current Node LTS; development keeps Node 20.19+.
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(22|24)-bookworm-slim$/m);
    expect(pkg.engines.node).toBe('>=20.19');
  });

  it('reaches the browser bundle alone, not the rest of package.json', async () => {
    const result = await esbuild.build({
      stdin: { contents: "import { PACER_VERSION } from '@shared/release.js'; console.log(PACER_VERSION);", resolveDir: process.cwd() },
      bundle: true,
      minify: true,
      write: false,
      platform: 'browser',
      tsconfig: 'tsconfig.json',
    });
    const code = result.outputFiles[0]!.text;
    expect(code).toContain(`"${pkg.version}"`);
    expect(code).not.toContain('devDependencies');
    expect(code.length).toBeLessThan(200);
  });
});

describe('the running release', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('is named on the Account page', async () => {
    const { agent } = await t.signedInAgent();
    const res = await agent.get('/settings/account').expect(200);
    expect(res.text).toContain(`Pacer CRM ${pkg.version}`);
  });
});
