import { header, type WireOutcome, type WireRequest, type WireResponse } from './wire.js';

/** One thing wrong with an answer. `message` is stable across cases so failures can be grouped by it. */
export interface Problem {
  kind: '5xx' | 'leak' | '4xx-not-json' | '4xx-unreadable' | 'no-answer' | 'crash' | 'unhealthy';
  status?: number;
  message: string;
  /** Case-specific detail (a body excerpt, the server's log line): shown, not grouped on. */
  detail?: string;
}

/** Stack frames ("at fn (/path/file.ts:1:2)", "at /path/file.js:3:4") and error class prefixes. */
const STACK_PATTERNS: Array<[string, RegExp]> = [
  ['stack frame', /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/)?\/[^\s()"']+:\d+:\d+\)?/],
  ['error class', /\b(?:Type|Reference|Range|Syntax|Internal|Aggregate)Error: /],
  ['module path', /node_modules\/|\/src\/(?:api|server|services|db|ssr|shared)\/[\w/-]+\.(?:ts|tsx|js)\b/],
];

/** SQL and driver error text; checked on error answers only, where page copy such as "Update … Set" cannot appear. */
const SQL_PATTERNS: Array<[string, RegExp]> = [
  ['SQL select', /\bselect\b[^"]{1,200}?\bfrom\b/i],
  ['SQL insert', /\binsert\s+into\b/i],
  ['SQL update', /\bupdate\s+[`"]?\w+[`"]?\s+set\b/i],
  ['SQL delete', /\bdelete\s+from\b/i],
  ['SQLite error code', /\bSQLITE_[A-Z_]+\b/],
  ['MySQL error code', /\bER_[A-Z_]{3,}\b/],
  ['driver name', /\b(?:better-sqlite3|mysql2|knex)\b/i],
];

export interface JudgeContext {
  /** /api answers must be JSON errors; pages may answer HTML. */
  api: boolean;
  method: string;
  /** The request was cut short or mis-framed on purpose: no answer is a fair outcome. */
  incomplete: boolean;
  /** Absolute paths of this run (repository, upload directory, database file) that must never be shown. */
  internalPaths: string[];
}

function requestText(request: WireRequest): string {
  const raw = `${request.rawHead ?? request.target}\n${request.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}\n${request.body.toString('utf8')}`;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // Broken %-encoding: the raw text is what there is.
  }
  return `${raw}\n${decoded}`;
}

/** What the server echoed from the request is not a leak (e.g. "No API route for GET /api/…"). */
function findLeak(text: string, request: WireRequest, patterns: Array<[string, RegExp]>): { name: string; match: string } | undefined {
  for (const [name, pattern] of patterns) {
    const match = pattern.exec(text)?.[0];
    if (match && !requestText(request).includes(match)) return { name, match };
  }
  return undefined;
}

const excerpt = (body: Buffer) => {
  const text = body.toString('utf8');
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
};

/** Problems with one answer; an empty list means the answer is acceptable. */
export function judge(request: WireRequest, outcome: WireOutcome, context: JudgeContext): Problem[] {
  if (outcome.kind === 'refused') return [{ kind: 'crash', message: `connection refused (${outcome.detail})` }];
  if (outcome.kind === 'timeout') return context.incomplete ? [] : [{ kind: 'no-answer', message: 'no answer before the time limit' }];
  // A whole, well-formed request deserves an answer; a dropped connection (or half an answer) is a failure too,
  // unless the connection was reset: answering early and closing on an unread body resets it under the answer.
  if (outcome.kind === 'no-response') return context.incomplete || outcome.reset ? [] : [{ kind: 'no-answer', message: outcome.detail }];
  return judgeResponse(request, outcome.response, context);
}

function judgeResponse(request: WireRequest, response: WireResponse, context: JudgeContext): Problem[] {
  const problems: Problem[] = [];
  const { status, body } = response;
  const text = body.toString('utf8');
  // Node's own HTTP parser refuses broken requests before Express sees them: a bare status, no request id.
  const fromNodeParser = header(response, 'x-request-id') === undefined;
  const json = parseJson(text);
  const message = typeof json?.message === 'string' ? json.message : undefined;

  if (status >= 500) problems.push({ kind: '5xx', status, message: message ?? `HTTP ${status}`, detail: excerpt(body) });

  const stackLeak = findLeak(text, request, STACK_PATTERNS);
  if (stackLeak) problems.push({ kind: 'leak', status, message: `${stackLeak.name} in the body`, detail: stackLeak.match });
  const pathLeak = context.internalPaths.find((p) => p.length > 4 && text.includes(p) && !requestText(request).includes(p));
  if (pathLeak) problems.push({ kind: 'leak', status, message: 'internal file path in the body', detail: pathLeak });
  if (status >= 400) {
    const sqlLeak = findLeak(text, request, SQL_PATTERNS);
    if (sqlLeak) problems.push({ kind: 'leak', status, message: `${sqlLeak.name} in the body`, detail: sqlLeak.match });
  }

  if (context.api && status >= 400 && status < 500 && !fromNodeParser) {
    const type = header(response, 'content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) {
      problems.push({ kind: '4xx-not-json', status, message: `Content-Type ${type || '(none)'}`, detail: excerpt(body) });
    } else if (context.method !== 'HEAD') {
      if (!json) problems.push({ kind: '4xx-not-json', status, message: 'body is not a JSON object', detail: excerpt(body) });
      else if (!isReadable(message))
        problems.push({ kind: '4xx-unreadable', status, message: 'no readable message', detail: excerpt(body) });
      else if (typeof json.code !== 'string')
        problems.push({ kind: '4xx-unreadable', status, message: 'no error code', detail: excerpt(body) });
    }
  }
  return problems;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A sentence for a person: some letters, not markup or JSON, not absurdly long. */
function isReadable(message: string | undefined): boolean {
  if (!message) return false;
  const trimmed = message.trim();
  return /\p{L}{2,}/u.test(trimmed) && !/^[<{[]/.test(trimmed) && trimmed.length <= 10_000;
}
