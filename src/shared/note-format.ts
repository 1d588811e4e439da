/**
 * The small formatting of notes (issue 33), parsed by our own code into a tree that the screens turn into React
 * elements: never HTML. Blocks: paragraphs (split by a blank line; a single line break stays one), bullet lists
 * ("- " or "* ") and numbered lists ("1. "). Inline: **bold**, *italics* (or _italics_), links as [text](url) or a
 * bare http(s) address, and @mentions of a user's email address. Only http:, https: and mailto: links are links;
 * anything else stays text.
 */

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'b'; c: Inline[] }
  | { t: 'i'; c: Inline[] }
  | { t: 'link'; href: string; c: Inline[] }
  | { t: 'mention'; email: string };

export type Block = { kind: 'p'; lines: Inline[][] } | { kind: 'ul' | 'ol'; items: Inline[][] };

const BULLET = /^\s{0,3}[-*]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,3}[.)]\s+(.*)$/;
/** An email address after "@", as in "@ana@example.org". */
const MENTION = /@([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/y;
const BARE_URL = /https?:\/\/[^\s<>()[\]]+[^\s<>()[\].,;:!?'"]/y;
const LINK = /\[([^\]\n]{1,500})\]\(([^)\s]{1,2000})\)/y;

/** A link target we let through: http(s) or mailto, nothing that could run or reach elsewhere. */
function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^https?:\/\/[^\s]+$/i.test(trimmed) || /^mailto:[^\s]+$/i.test(trimmed)) return trimmed;
  return null;
}

/** The email addresses @mentioned in a note's body, lowercased and without repeats. */
export function mentionedEmails(body: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '@' || (i > 0 && /[A-Za-z0-9._%+-]/.test(body[i - 1]!))) continue;
    MENTION.lastIndex = i;
    const match = MENTION.exec(body);
    if (match) {
      found.add(match[1]!.toLowerCase());
      i += match[0].length - 1;
    }
  }
  return [...found];
}

function pushText(out: Inline[], value: string) {
  if (!value) return;
  const last = out[out.length - 1];
  if (last?.t === 'text') last.v += value;
  else out.push({ t: 'text', v: value });
}

/** Inline formatting of one line; `depth` stops emphasis nesting without end. */
function parseInline(line: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === '*' && line[i + 1] === '*' && depth < 4) {
      const end = line.indexOf('**', i + 2);
      if (end > i + 2) {
        out.push({ t: 'b', c: parseInline(line.slice(i + 2, end), depth + 1) });
        i = end + 2;
        continue;
      }
    }
    if ((ch === '*' || ch === '_') && depth < 4 && line[i + 1] !== ch && line[i + 1] !== ' ') {
      const end = line.indexOf(ch, i + 1);
      const before = i > 0 ? line[i - 1]! : ' ';
      if (end > i + 1 && line[end - 1] !== ' ' && (ch === '*' || !/[A-Za-z0-9]/.test(before))) {
        out.push({ t: 'i', c: parseInline(line.slice(i + 1, end), depth + 1) });
        i = end + 1;
        continue;
      }
    }
    if (ch === '[') {
      LINK.lastIndex = i;
      const match = LINK.exec(line);
      const href = match ? safeHref(match[2]!) : null;
      if (match && href) {
        out.push({ t: 'link', href, c: parseInline(match[1]!, depth + 1) });
        i += match[0].length;
        continue;
      }
    }
    if (ch === 'h' && (i === 0 || !/[A-Za-z0-9]/.test(line[i - 1]!))) {
      BARE_URL.lastIndex = i;
      const match = BARE_URL.exec(line);
      if (match) {
        out.push({ t: 'link', href: match[0], c: [{ t: 'text', v: match[0] }] });
        i += match[0].length;
        continue;
      }
    }
    if (ch === '@' && (i === 0 || !/[A-Za-z0-9._%+-]/.test(line[i - 1]!))) {
      MENTION.lastIndex = i;
      const match = MENTION.exec(line);
      if (match) {
        out.push({ t: 'mention', email: match[1]!.toLowerCase() });
        i += match[0].length;
        continue;
      }
    }
    pushText(out, ch);
    i++;
  }
  return out;
}

/** A note's body as blocks. */
export function parseNote(body: string): Block[] {
  const blocks: Block[] = [];
  let current = null as Block | null;
  for (const raw of body.replace(/\r\n?/g, '\n').split('\n')) {
    if (raw.trim() === '') {
      current = null;
      continue;
    }
    const bullet = BULLET.exec(raw);
    const numbered = bullet ? null : NUMBERED.exec(raw);
    const kind: Block['kind'] = bullet ? 'ul' : numbered ? 'ol' : 'p';
    if (kind === 'p') {
      let paragraph: Extract<Block, { kind: 'p' }> | null = current?.kind === 'p' ? current : null;
      if (!paragraph) blocks.push((paragraph = { kind: 'p', lines: [] }));
      paragraph.lines.push(parseInline(raw.trim()));
      current = paragraph;
    } else {
      let list: Extract<Block, { kind: 'ul' | 'ol' }> | null =
        current && current.kind === kind ? (current as Extract<Block, { kind: 'ul' | 'ol' }>) : null;
      if (!list) blocks.push((list = { kind, items: [] }));
      list.items.push(parseInline((bullet ?? numbered)![1]!));
      current = list;
    }
  }
  return blocks;
}
