import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A message the receiver took, after checking its signature with the standardwebhooks package (not our code). */
export interface Received {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** A local endpoint: verifies every request's signature and answers with `answer()` (200 unless told otherwise). */
export class Receiver {
  readonly received: Received[] = [];
  readonly refused: string[] = [];
  requests = 0;
  secret = '';
  answer: (request: number) => number = () => 200;
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests += 1;
        const status = this.answer(this.requests);
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          const message = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as Omit<Received, 'id'>;
          if (status >= 200 && status < 300) this.received.push({ id: String(req.headers['webhook-id']), ...message });
        } catch (error) {
          this.refused.push((error as Error).message);
        }
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? 'x'.repeat(5000) : 'ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
