import { HttpError } from '@shared/api-error.js';

/**
 * The browser's one request helper (spec point 7): JSON content type and body only when there is a body,
 * cookies always sent, and any non-2xx answer becomes an HttpError whose message is "status: body text".
 */
export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new HttpError(response.status, await response.text(), response.statusText);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
