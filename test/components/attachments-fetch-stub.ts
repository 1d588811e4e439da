import { vi } from 'vitest';

export type FetchCall = { url: string; method: string; body: unknown };

/** Replaces fetch with a stub that records every call (JSON bodies parsed) and answers with `answer`. */
export function stubFetch(answer: (call: FetchCall) => Response | Promise<Response> = () => new Response(null, { status: 204 })) {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { url, method: init.method ?? 'GET', body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
