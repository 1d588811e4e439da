import { expect } from 'vitest';
import type { TestApp } from './app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

const unescapeHtml = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');

/**
 * A server-rendered list page as a reader without script sees it: the ids its rows link to under `path` (e.g.
 * `/brands`), its Next and Previous links, and the page number it says it shows.
 */
export async function readListPage(agent: Agent, url: string, path: string) {
  const res = await agent.get(url);
  expect(res.status, url).toBe(200);
  const html = res.text;
  const rowLink = new RegExp(`href="${path}/(\\d+)"`, 'g');
  const ids = [...new Set([...html.matchAll(rowLink)].map((match) => Number(match[1])))];
  const link = (rel: string) => {
    const tag = [...html.matchAll(/<a [^>]*>/g)].map((match) => match[0]).find((a) => a.includes(`rel="${rel}"`));
    const href = tag && /href="([^"]*)"/.exec(tag)?.[1];
    return href ? unescapeHtml(href) : null;
  };
  const status = /Page <!-- -->(\d+)<!-- --> of <!-- -->(\d+)/.exec(html);
  return { ids, next: link('next'), prev: link('prev'), page: status ? Number(status[1]) : null };
}

/**
 * The refusals every cursor-paged list owes its callers, each a 400 that says why: a cursor that is not one, one
 * changed by a character or cut short, one given for another sort or direction, both directions at once, and a
 * cursor with an offset. `next` is a cursor `list` (e.g. `/api/events`) gave for `sort` ascending; `otherSort` is
 * another of its sortable columns.
 */
export async function expectBadCursorsRefused(agent: Agent, list: string, cursor: { next: string; sort: string; otherSort: string }) {
  const { next, sort, otherSort } = cursor;
  const refused = async (search: string, message: string) => {
    const res = await agent.get(`${list}?${search}`);
    expect(res.status, search).toBe(400);
    expect(res.body.message, search).toBe(message);
  };
  const notOurs = (param: string) => `${param} is not a cursor this list gave; start again from the first page`;
  await refused('after=%3Cscript%3E', "after must be a cursor from a list's answer");
  await refused('after=abc', notOurs('after'));
  await refused('before=abc.defghijk', notOurs('before'));
  // One character of the payload changed: the checksum no longer matches.
  const changed = `${next[0] === 'A' ? 'B' : 'A'}${next.slice(1)}`;
  await refused(`sort=${sort}&dir=asc&after=${changed}`, notOurs('after'));
  await refused(`sort=${sort}&dir=asc&after=${next.slice(0, -1)}`, notOurs('after'));
  await refused(`sort=${sort}&dir=asc&before=${next.slice(0, -1)}`, notOurs('before'));
  await refused(`sort=${otherSort}&after=${next}`, `after belongs to another sort than ${otherSort} asc; start again from the first page`);
  await refused(
    `sort=${sort}&dir=desc&before=${next}`,
    `before belongs to another sort than ${sort} desc; start again from the first page`,
  );
  await refused(`sort=${sort}&dir=asc&after=${next}&before=${next}`, 'Give after or before, not both');
  await refused(`sort=${sort}&dir=asc&after=${next}&offset=4`, 'offset cannot be combined with after');
  return { refused, changed, notOurs };
}
