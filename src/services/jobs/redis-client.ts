import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/**
 * A small Redis client (RESP2 over one socket, commands pipelined in order) for BullMQ. BullMQ drives its Redis
 * through an adapter around a client that offers `send(command, args)`, `connect()`, `close()`, `duplicate()`,
 * `connected` and the `onconnect`/`onclose` callbacks (the shape of Bun's built-in client), and does its own
 * scripting and reconnecting on top; this gives it that shape on Node without the ioredis package.
 */
type Reply = string | number | null | Reply[];

interface Pending {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

class RedisReplyError extends Error {
  override name = 'RedisReplyError';
}

class RespParser {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  /** The next whole reply, or undefined when more bytes are needed. */
  next(): { reply: Reply | RedisReplyError } | undefined {
    const parsed = this.parseAt(0);
    if (!parsed) return undefined;
    this.buffer = this.buffer.subarray(parsed.end);
    return { reply: parsed.value };
  }

  private parseAt(start: number): { value: Reply | RedisReplyError; end: number } | undefined {
    const lineEnd = this.buffer.indexOf('\r\n', start);
    if (lineEnd === -1) return undefined;
    const type = String.fromCharCode(this.buffer[start]!);
    const line = this.buffer.toString('utf8', start + 1, lineEnd);
    const after = lineEnd + 2;
    switch (type) {
      case '+':
        return { value: line, end: after };
      case '-':
        return { value: new RedisReplyError(line), end: after };
      case ':':
        return { value: Number(line), end: after };
      case '$': {
        const length = Number(line);
        if (length < 0) return { value: null, end: after };
        if (this.buffer.length < after + length + 2) return undefined;
        return { value: this.buffer.toString('utf8', after, after + length), end: after + length + 2 };
      }
      case '*': {
        const count = Number(line);
        if (count < 0) return { value: null, end: after };
        const items: Reply[] = [];
        let position = after;
        for (let i = 0; i < count; i++) {
          const item = this.parseAt(position);
          if (!item) return undefined;
          // An error inside a reply (EXEC, script results) is kept as the error's text for the caller to judge.
          items.push(item.value instanceof RedisReplyError ? item.value.message : item.value);
          position = item.end;
        }
        return { value: items, end: position };
      }
      default:
        throw new Error(`Unexpected Redis reply type ${JSON.stringify(type)}`);
    }
  }
}

function encodeCommand(command: string, args: ReadonlyArray<unknown>): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length + 1}\r\n$${Buffer.byteLength(command)}\r\n${command}\r\n`)];
  for (const arg of args) {
    const bytes = Buffer.isBuffer(arg) ? arg : arg instanceof Uint8Array ? Buffer.from(arg) : Buffer.from(String(arg));
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

export class RespRedisClient {
  connected = false;
  onconnect: () => void = () => undefined;
  onclose: (error?: Error) => void = () => undefined;
  onerror: (error: Error) => void = () => undefined;
  private socket: Socket | null = null;
  private readonly pending: Pending[] = [];
  private readonly parser = new RespParser();

  constructor(readonly url: string) {}

  duplicate(): RespRedisClient {
    return new RespRedisClient(this.url);
  }

  /**
   * Closes a client handed to BullMQ once BullMQ is done with it: BullMQ treats a client it was given as shared and
   * never closes it (it closes only the duplicates it made). Nothing listens any more, so the close is silent.
   */
  retire(): void {
    this.onconnect = () => undefined;
    this.onclose = () => undefined;
    this.onerror = () => undefined;
    this.close();
  }

  connect(): Promise<void> {
    const target = new URL(this.url);
    const port = Number(target.port || 6379);
    const host = target.hostname || '127.0.0.1';
    return new Promise((resolve, reject) => {
      const socket = target.protocol === 'rediss:' ? connectTls({ host, port, servername: host }) : connect({ host, port });
      this.socket = socket;
      socket.setNoDelay(true);
      let opened = false;
      socket.once(target.protocol === 'rediss:' ? 'secureConnect' : 'connect', () => {
        opened = true;
        this.connected = true;
        void this.handshake(target)
          .then(() => {
            this.onconnect();
            resolve();
          })
          .catch((error: Error) => {
            socket.destroy(error);
            reject(error);
          });
      });
      socket.on('data', (chunk: Buffer) => this.receive(chunk));
      socket.on('error', (error) => {
        if (!opened) reject(error);
        this.onerror(error);
      });
      socket.on('close', () => {
        const wasConnected = this.connected;
        this.connected = false;
        this.socket = null;
        const closed = new Error('Connection closed');
        for (const waiting of this.pending.splice(0)) waiting.reject(closed);
        if (wasConnected || opened) this.onclose(closed);
      });
    });
  }

  private async handshake(target: URL) {
    const password = decodeURIComponent(target.password);
    const username = decodeURIComponent(target.username);
    if (password) await this.send('AUTH', username ? [username, password] : [password]);
    const db = target.pathname.replace(/^\//, '');
    if (db) await this.send('SELECT', [db]);
  }

  send(command: string, args: ReadonlyArray<unknown> = []): Promise<Reply> {
    const socket = this.socket;
    if (!socket || !this.connected) return Promise.reject(new Error('Connection closed'));
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      socket.write(encodeCommand(command, args));
    });
  }

  close(): void {
    this.socket?.end();
    this.socket?.destroy();
  }

  /** BullMQ recognises a client instance by connect(), disconnect() and duplicate(). */
  disconnect(): void {
    this.close();
  }

  private receive(chunk: Buffer) {
    this.parser.push(chunk);
    for (;;) {
      const parsed = this.parser.next();
      if (!parsed) return;
      const waiting = this.pending.shift();
      if (!waiting) continue;
      if (parsed.reply instanceof RedisReplyError) waiting.reject(parsed.reply);
      else waiting.resolve(parsed.reply);
    }
  }
}
