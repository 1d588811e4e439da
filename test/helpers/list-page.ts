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
