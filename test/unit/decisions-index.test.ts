import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** docs/decisions/README.md is the newcomer's map of the decisions: it must name each one, and only real files. */
const dir = path.resolve(import.meta.dirname, '../../docs/decisions');

describe('the map of decisions', () => {
  const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
  const rows = readme.split('\n').filter((line) => /^\| \[\d{4}\]/.test(line));

  it('lists every decision once, with a line and a status', () => {
    const decisions = readdirSync(dir).filter((file) => /^\d{4}-.*\.md$/.test(file));
    for (const file of decisions) {
      const listed = rows.filter((row) => row.includes(`](${file})`));
      expect(listed, `docs/decisions/README.md lists ${file} once`).toHaveLength(1);
      const [, , line, status] = listed[0]!.split('|').map((cell) => cell.trim());
      expect(line, `${file}: its one line`).not.toBe('');
      expect(status, `${file}: its status`).toMatch(/^(current|superseded by \d{4})/);
    }
    expect(rows).toHaveLength(decisions.length);
  });

  it('links only to decisions that exist', () => {
    for (const [, target] of readme.matchAll(/\]\((\d{4}-[^)]+)\)/g))
      expect(existsSync(path.join(dir, target!)), `${target} exists`).toBe(true);
  });
});
