import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a webhook may not reach unless WEBHOOKS_ALLOW_PRIVATE=true: this machine, private networks, link-local
 * (cloud metadata services), shared carrier space, benchmarking, multicast and reserved ranges.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKPRIVATE';
}

const refusal = (host: string, address: string) =>
  new RefusedAddressError(`${host} resolves to ${address}, a private or loopback address (WEBHOOKS_ALLOW_PRIVATE is not set)`);

/** The URL's host name without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Every address the URL's host resolves to; refused when one is private (unless allowed). */
export async function checkUrlAddresses(url: URL, allowPrivate: boolean): Promise<string[]> {
  const host = hostOf(url);
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve, reject) =>
        dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found.map((entry) => entry.address)))),
      );
  if (!allowPrivate) for (const address of addresses) if (isPrivateAddress(address)) throw refusal(host, address);
  return addresses;
}

/**
 * A DNS lookup that refuses private answers: the connection is made to exactly the address checked here, so a name
 * that resolves to a public address when the endpoint is added and to a private one later (DNS rebinding) is
 * refused at delivery too.
 */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivate ? undefined : found.find((entry) => isPrivateAddress(entry.address));
      if (refused) return callback(refusal(hostname, refused.address) as NodeJS.ErrnoException, '', 0);
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, found);
      const first = found[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Connections kept open between deliveries to the same endpoint (one per setting of allowPrivate): the address was
 * checked when each was opened, by the lookup above. An idle one is closed after IDLE_SOCKET_MS, or a second before
 * the receiver said it would close it (its `Keep-Alive: timeout=` answer, which node's agent heeds only when given a
 * timeout of its own), so a delivery rarely goes out on a connection the receiver is closing.
 */
const IDLE_SOCKET_MS = 30_000;
const agents = new Map<string, HttpAgent>();
function agentFor(protocol: string, allowPrivate: boolean): HttpAgent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 8, timeout: IDLE_SOCKET_MS, lookup: checkedLookup(allowPrivate) };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's bytes (after `whsec_`). */
export function signature(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}

/** At most this much of an answer is kept (the delivery log shows it). */
const KEPT_ANSWER_BYTES = 1024;

export interface SendResult {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

/** URLs as parsed, per endpoint URL: a delivery does not parse its endpoint's again. */
const parsedUrls = new Map<string, URL>();
function parsedUrl(text: string): URL {
  let url = parsedUrls.get(text);
  if (!url) {
    if (parsedUrls.size >= 1000) parsedUrls.clear();
    url = new URL(text);
    parsedUrls.set(text, url);
  }
  return url;
}

/**
 * A connection kept open may be closed by the receiver just as a request goes out on it: the request fails before
 * any answer (ECONNRESET, "socket hang up"), and the receiver never saw it. Such a request goes out again at once, on
 * another connection, at most this many times (one per socket the agent may have open, and a new one).
 */
const RESENDS_ON_CLOSED_CONNECTION = 9;

export interface SendTarget {
  url: string;
  secret: string;
  messageId: string;
  body: string;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

/**
 * One attempt: POSTs the body with the Standard Webhooks headers. A 2xx answer is success; anything else (a redirect,
 * which is not followed, another status, a timeout, a refused address, a network error) is a failure to retry.
 */
export async function sendWebhook(target: SendTarget, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const url = parsedUrl(target.url);
    // An IP literal is connected to without a lookup: check it here.
    if (!options.allowPrivate && isIP(hostOf(url))) await checkUrlAddresses(url, false);
    // Wall-clock seconds: the receiver compares them with its own clock.
    const timestamp = Math.floor(Date.now() / 1000);
    const payload = Buffer.from(target.body, 'utf8');
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const requestOptions = {
      method: 'POST',
      // The agent's lookup checks every address connected to.
      agent: agentFor(url.protocol, options.allowPrivate),
      headers: {
        'content-type': 'application/json',
        'content-length': payload.length,
        'user-agent': 'Pacer-Webhooks/1',
        'webhook-id': target.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(target.secret, target.messageId, timestamp, target.body),
      },
    };
    let resends = 0;
    const attempt = () =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const left = options.timeoutMs - (performance.now() - started);
        const req = send(url, requestOptions, (res: IncomingMessage) => {
          const kept: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < KEPT_ANSWER_BYTES) kept.push(chunk.subarray(0, KEPT_ANSWER_BYTES - size));
            size += chunk.length;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(kept).toString('utf8') }));
          res.on('error', reject);
        });
        const timer = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), Math.max(left, 0));
        req.on('close', () => clearTimeout(timer));
        req.on('error', (error: NodeJS.ErrnoException) => {
          if (req.reusedSocket && error.code === 'ECONNRESET' && resends < RESENDS_ON_CLOSED_CONNECTION) {
            resends += 1;
            attempt().then(resolve, reject);
          } else reject(error);
        });
        req.end(payload);
      });
    const answer = await attempt();
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      ok,
      status: answer.status,
      body: answer.body || null,
      error: ok ? null : answer.status >= 300 && answer.status < 400 ? 'Redirects are not followed' : `Answered ${answer.status}`,
      durationMs: took(),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, status: null, body: null, error: message.slice(0, 300), durationMs: took() };
  }
}
