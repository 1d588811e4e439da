import { readFileSync } from 'node:fs';
import { parse as parseDotEnv } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@config/env.js';

/**
 * docker compose's env_file rules, as its documentation states them ("Syntax for environment files"): `#` starts a
 * comment line; blank lines are skipped; `KEY=VAL`, optionally after `export `; a quoted value ends at its closing
 * quote (escaped with `\`) and anything after it is a comment; an unquoted value loses its leading blanks and ends
 * at an inline comment, which must be preceded by a blank, so `KEY=   # note` is the value `# note`; double-quoted
 * values expand `\n`, `\r`, `\t`, `\\` and `\"`; unquoted and double-quoted values interpolate `$NAME`/`${NAME}`.
 */
function parseAsCompose(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const interpolate = (value: string) =>
    value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced?: string, bare?: string) => {
      const name = (braced ?? bare)!;
      return values[name] ?? '';
    });
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const assignment = trimmed.replace(/^export\s+/, '');
    const equals = assignment.indexOf('=');
    if (equals < 0) continue;
    const key = assignment.slice(0, equals).trim();
    const raw = assignment.slice(equals + 1).replace(/^[ \t]+/, '');
    const quote = raw[0];
    if (quote === '"' || quote === "'") {
      let value = '';
      for (let i = 1; i < raw.length && raw[i] !== quote; i++) {
        if (raw[i] === '\\' && i + 1 < raw.length) {
          const next = raw[++i]!;
          if (quote === "'") value += next === "'" ? "'" : `\\${next}`;
          else value += ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[next] ?? next;
        } else value += raw[i];
      }
      values[key] = quote === '"' ? interpolate(value) : value;
    } else {
      const comment = /[ \t]#/.exec(raw);
      values[key] = interpolate((comment ? raw.slice(0, comment.index) : raw).trimEnd());
    }
  }
  return values;
}

/** The settings a file gives differently to compose's env_file and to our reader (dotenv, as src/config/env.ts). */
function readDifferently(text: string): Array<{ key: string; compose?: string; pacer?: string }> {
  const compose = parseAsCompose(text);
  const pacer = parseDotEnv(text);
  return [...new Set([...Object.keys(compose), ...Object.keys(pacer)])]
    .filter((key) => compose[key] !== pacer[key])
    .map((key) => ({ key, compose: compose[key], pacer: pacer[key] }));
}

const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');

describe('.env files read by docker compose and by Pacer', () => {
  it('reads .env.example the same both ways', () => {
    expect(readDifferently(example)).toEqual([]);
    expect(Object.keys(parseAsCompose(example)).length).toBeGreaterThan(30);
  });

  it('keeps every comment of .env.example on a line of its own', () => {
    const inline = example.split('\n').filter((line) => /^[A-Z][A-Z0-9_]*=.*#/.test(line));
    expect(inline).toEqual([]);
  });

  it('finds what the two readers disagree on', () => {
    const tricky = [
      'SESSION_SECRET=                   # at least 32 random characters',
      'COOKIE_SECURE=true # a comment after a blank: both drop it',
      'PASSWORD=abc#def',
      'QUOTED="a # inside quotes"   # and a comment after',
      "SINGLE='it''s'",
      'EXPANDED=${PORT}/x',
      'PORT=3000',
      'export EXPORTED=yes',
    ].join('\n');
    expect(readDifferently(tricky)).toEqual([
      { key: 'SESSION_SECRET', compose: '# at least 32 random characters', pacer: '' },
      { key: 'PASSWORD', compose: 'abc#def', pacer: 'abc' },
      { key: 'SINGLE', compose: 'it', pacer: "it''s" },
      { key: 'EXPANDED', compose: '/x', pacer: '${PORT}/x' },
    ]);
    expect(parseAsCompose(tricky)).toMatchObject({ COOKIE_SECURE: 'true', QUOTED: 'a # inside quotes', EXPORTED: 'yes' });
  });

  it('agrees on the plain forms', () => {
    const plain = ['# a comment', '', 'A=1', 'B=', 'C=two words', 'D="quoted # value"', "E='single'", 'F=x # note'].join('\n');
    expect(readDifferently(plain)).toEqual([]);
  });
});

describe('settings validation', () => {
  const base = { NODE_ENV: 'test', BCRYPT_COST: '4' };

  it('refuses a secret or URL that is a comment read as its value', () => {
    const compose = parseAsCompose('SESSION_SECRET=                   # at least 32 random characters, generated when empty');
    expect(() => loadConfig({ ...base, ...compose }, { cwd: '/tmp' })).toThrow(
      /SESSION_SECRET: begins with "#", so it looks like a comment read as the value/,
    );
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'WORDPRESS_URL', 'S3_ENDPOINT', 'SMTP_URL', 'MAILCHIMP_API_KEY', 'COOKIE_SECURE'])
      expect(() => loadConfig({ ...base, SESSION_SECRET: 's'.repeat(40), [name]: '# e.g. something' }, { cwd: '/tmp' })).toThrow(
        new RegExp(`^Invalid settings:\\n {2}- ${name}: begins with "#"`),
      );
  });

  it('accepts the example as compose reads it', () => {
    const values = parseAsCompose(example);
    expect(() => loadConfig({ ...values, ...base, SESSION_SECRET: 's'.repeat(40) }, { cwd: '/tmp' })).not.toThrow();
  });
});
