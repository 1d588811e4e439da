import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '@config/env.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** README.md and every Markdown file under docs/, as paths from the project folder. */
const markdownFiles = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file)),
];

/** Hosts a code sample or example may name: none of them is a real site. */
const EXAMPLE_HOSTS = /^(?:[\w-]+\.)*(?:example\.(?:org|com|net)|localhost|127\.0\.0\.1)(?::\d+)?$/;

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** Every link target in a Markdown text outside code: [text](target), ![alt](target), [ref]: target, <url>, bare URLs. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]!),
    ...[...prose.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi)].map((match) => match[1]!),
  ];
  // Bare URLs in prose that are not already inside a link above.
  const bare = [...prose.replace(/\]\([^)]*\)/g, '](…)').matchAll(/\bhttps?:\/\/[^\s)<>"']+/g)].map((match) =>
    match[0].replace(/[.,;:!?]+$/, ''),
  );
  return [...new Set([...targets, ...bare])];
}

/** What is wrong with one link of `file`, or undefined when it stays in the repository and leads somewhere. */
function problemOf(file: string, target: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
  if (scheme) {
    const host = /^https?:\/\/([^/?#]+)/i.exec(target)?.[1];
    if (host && EXAMPLE_HOSTS.test(host)) return undefined;
    return 'leaves the repository';
  }
  const [pathPart = '', anchor] = target.split('#');
  const resolved = pathPart ? path.normalize(path.join(path.dirname(file), decodeURIComponent(pathPart))) : file;
  if (resolved.startsWith('..') || path.isAbsolute(resolved)) return 'points outside the repository';
  if (!existsSync(path.join(root, resolved))) return `${resolved} does not exist`;
  if (anchor && resolved.endsWith('.md') && statSync(path.join(root, resolved)).isFile()) {
    const headings = [...read(resolved).matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!));
    if (!headings.includes(anchor)) return `${resolved} has no heading #${anchor}`;
  }
  return undefined;
}

describe('the README and docs/', () => {
  it('link only to files of the repository that exist', () => {
    const problems = markdownFiles.flatMap((file) =>
      linksOf(read(file)).flatMap((target) => {
        const problem = problemOf(file, target);
        return problem ? [`${file}: ${target} ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('catch external links and missing files', () => {
    const sample = [
      'See [the spec](../../shared/spec/product-spec.md), [a site](https://evil.test/x), <https://example.net/docs>,',
      'https://github.com/some/repo and [settings](settings.md#web-server), [missing](nowhere.md),',
      '[a heading that is not there](settings.md#no-such-heading).',
      '```sh',
      'curl https://real-site.test/   # inside code: ignored',
      '```',
      '`https://inline.test` is code too; [example](https://crm.example.org/healthz) is an example host.',
    ].join('\n');
    const found = linksOf(sample).map((target) => [target, problemOf('docs/x.md', target)]);
    expect(found).toEqual([
      ['../../shared/spec/product-spec.md', 'points outside the repository'],
      ['https://evil.test/x', 'leaves the repository'],
      ['settings.md#web-server', undefined],
      ['nowhere.md', 'docs/nowhere.md does not exist'],
      ['settings.md#no-such-heading', 'docs/settings.md has no heading #no-such-heading'],
      ['https://crm.example.org/healthz', undefined],
      ['https://example.net/docs', undefined],
      ['https://github.com/some/repo', 'leaves the repository'],
    ]);
  });

  it('keep the README short and its screenshots small', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(260);
    const images = [...readme.matchAll(/!\[[^\]]+\]\((docs\/[^)]+\.png)\)/g)].map((match) => match[1]!);
    expect(images.length).toBeGreaterThanOrEqual(2);
    for (const image of images) {
      const png = readFileSync(path.join(root, image));
      expect(png.subarray(1, 4).toString(), image).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], image).toEqual([1280, 800]);
      expect(png.length, image).toBeLessThan(150 * 1024);
    }
  });
});

describe('the settings reference', () => {
  const reference = read('docs/settings.md');
  const example = read('.env.example');
  // Settings read outside the config schema (the logger, the CLI's paths, the metrics) are documented the same way.
  const documented = [...SETTING_NAMES, 'LOG_FORMAT', 'PACER_HOME', 'METRICS_TOKEN', 'WORKER_METRICS_PORT'];

  it('explains every setting in docs/settings.md', () => {
    const rows = new Set([...reference.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!));
    expect(documented.filter((name) => !rows.has(name))).toEqual([]);
  });

  it('lists every setting in .env.example', () => {
    const listed = new Set([...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
    expect(documented.filter((name) => !listed.has(name))).toEqual([]);
  });
});
