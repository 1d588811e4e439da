import net, { type AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { requestLogging } from '@server/request-log.js';
import { createTestApp } from '../helpers/app.js';
import { gate, waitUntil } from '../helpers/wait.js';

interface LogLine {
  level: number;
  msg: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
  aborted?: boolean;
  step?: string;
  err?: { message: string; code?: string };
}

function appWithLog(level = 'info') {
  const lines: LogLine[] = [];
  const log = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const counts = { arrived: 0, closed: 0, lateAnswers: 0 };
  const slowAnswer = gate();
  const app = express();
  app.use(requestLogging(log));
  // Registered after the logger's own 'close' listener, so once `closed` counts a response its line (if any) is written.
  app.use((_req, res, next) => {
    counts.arrived++;
    res.once('close', () => counts.closed++);
    next();
  });
  app.get('/work', (req, res) => {
    req.log.info({ step: 'inside' }, 'doing the work');
    res.json({ ok: true });
  });
  app.get('/broken', (_req, res) => {
    res.status(500).json({ message: 'Something went wrong' });
  });
  app.get('/slow', (_req, res) => {
    void slowAnswer.promise.then(() => {
      res.json({ late: true });
      counts.lateAnswers++;
    });
  });
  app.get('/late-write', (_req, res) => {
    res.json({ ok: true });
    // A handler bug: writing after the answer, which the response reports with an 'error' event.
    res.write('late');
  });
  app.post('/checked-body', (req) => {
    req.resume();
    req.on('end', () => req.destroy(new Error('the body failed its checksum')));
  });
  app.post('/refused-body', (req) => {
    req.once('data', () => req.destroy(new Error('the body was refused')));
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  /** The response's 'close' (which writes the completion line) comes just after the answer reaches the client. */
  const settled = (responses: number) => waitUntil(() => counts.closed >= responses, `${responses} responses to close`);
  return { app, lines, counts, settled, releaseSlowAnswer: slowAnswer.release };
}

describe('request logging', () => {
  it('gives every request its own id, sent back as X-Request-Id and carried by every line logged for it', async () => {
    const { app, lines, settled } = appWithLog();
    const first = await supertest(app).get('/work?page=2').set('Cookie', 'pacer=secret-session-value');
    const second = await supertest(app).get('/work');
    await settled(2);
    const id = first.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(id);
    const mine = lines.filter((line) => line.req?.id === id);
    expect(mine.map((line) => line.msg)).toEqual(['doing the work', 'request completed']);
    expect(mine[0]).toMatchObject({ step: 'inside', req: { method: 'GET', url: '/work?page=2' } });
    expect(mine[1]).toMatchObject({ res: { statusCode: 200 }, level: 30 });
    expect(typeof mine[1]!.responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-session-value');
  });

  it('logs server errors at error level and leaves health probes out', async () => {
    const { app, lines, settled } = appWithLog();
    await supertest(app).get('/broken');
    await supertest(app).get('/healthz');
    await settled(2);
    expect(lines.map((line) => [line.level, line.msg, line.req?.url])).toEqual([[50, 'request completed', '/broken']]);
  });

  it('says so when the client left before the answer', async () => {
    const { app, lines, counts, settled, releaseSlowAnswer } = appWithLog();
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const controller = new AbortController();
    const request = fetch(`http://127.0.0.1:${port}/slow`, { signal: controller.signal }).catch((error: unknown) => error);
    await waitUntil(() => counts.arrived === 1, 'the request to reach the handler');
    controller.abort();
    await request;
    await settled(1);
    // The handler answers after the client left; that late answer must not log a second line.
    releaseSlowAnswer();
    await waitUntil(() => counts.lateAnswers === 1, 'the late answer');
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(lines.map((line) => [line.msg, line.aborted])).toEqual([['request aborted by the client', true]]);
  });

  it('keeps an incoming X-Request-Id that is a short safe token, and replaces anything else with a new one', async () => {
    const { app, lines } = appWithLog();
    const kept = await supertest(app).get('/work').set('X-Request-Id', 'edge-7f3a:01.b_9');
    expect(kept.headers['x-request-id']).toBe('edge-7f3a:01.b_9');
    for (const unsafe of ['two words', 'x'.repeat(65), '<script>', 'a"b', 'id}{"level":60']) {
      const res = await supertest(app).get('/work').set('X-Request-Id', unsafe);
      expect(res.headers['x-request-id'], unsafe).toMatch(/^[0-9a-f-]{36}$/);
    }
    await waitUntil(() => lines.filter((line) => line.msg === 'request completed').length === 6, 'six completion lines');
    expect(lines.filter((line) => line.req?.id === 'edge-7f3a:01.b_9').map((line) => line.msg)).toEqual([
      'doing the work',
      'request completed',
    ]);
  });

  it('logs an error on the response stream with the request id, and the process keeps serving', async () => {
    const { app, lines } = appWithLog();
    expect((await supertest(app).get('/late-write').set('X-Request-Id', 'late-1')).status).toBe(200);
    await waitUntil(() => lines.some((line) => line.msg === 'response stream failed'), 'the response stream error line');
    expect(lines.find((line) => line.msg === 'response stream failed')).toMatchObject({
      level: 40,
      req: { id: 'late-1' },
      err: { code: 'ERR_STREAM_WRITE_AFTER_END' },
    });
    expect((await supertest(app).get('/work')).status).toBe(200);
  });

  it('answers an error on the request stream with a 400 JSON error when nothing was sent yet, logged with the request id', async () => {
    const { app, lines } = appWithLog();
    const res = await supertest(app).post('/checked-body').set('X-Request-Id', 'body-1').timeout(5000).send('some bytes');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The request could not be read', code: 'bad_request' });
    expect(res.headers.connection).toBe('close');
    await waitUntil(() => lines.some((line) => line.msg === 'request stream failed'), 'the request stream error line');
    expect(lines.find((line) => line.msg === 'request stream failed')).toMatchObject({
      level: 40,
      req: { id: 'body-1' },
      err: { message: 'the body failed its checksum' },
    });
  });

  it('logs an error on a request stream still arriving with the request id, and the connection is closed', async () => {
    const { app, lines } = appWithLog();
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.write(
        `POST /refused-body HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: cut-1\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(1000)}`,
      );
      await closed;
      await waitUntil(() => lines.some((line) => line.msg === 'request stream failed'), 'the request stream error line');
      expect(lines.find((line) => line.msg === 'request stream failed')).toMatchObject({
        level: 40,
        req: { id: 'cut-1' },
        err: { message: 'the body was refused' },
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('writes nothing per request when the level is above info', async () => {
    const { app, lines, settled } = appWithLog('warn');
    await supertest(app).get('/work');
    await settled(1);
    expect(lines).toEqual([]);
  });
});

describe('request log lines of the app', () => {
  const completionLines = (logLines: string[]) =>
    logLines.map((line) => JSON.parse(line) as LogLine & { userId?: number }).filter((line) => line.msg === 'request completed');

  it('carry the signed-in user’s id, and none for a signed-out request', async () => {
    const t = await createTestApp();
    try {
      const { agent, user } = await t.signedInAgent();
      await agent.get('/api/events').set('X-Request-Id', 'signed-in-1');
      await t.agent().get('/api/events').set('X-Request-Id', 'signed-out-1');
      await waitUntil(() => completionLines(t.logLines).some((line) => line.req?.id === 'signed-out-1'), 'the signed-out line');
      await waitUntil(() => completionLines(t.logLines).some((line) => line.req?.id === 'signed-in-1'), 'the signed-in line');
      const lines = completionLines(t.logLines);
      expect(lines.find((line) => line.req?.id === 'signed-in-1')).toMatchObject({ userId: user.id, res: { statusCode: 200 } });
      expect(lines.find((line) => line.req?.id === 'signed-out-1')).toMatchObject({ res: { statusCode: 401 } });
      expect(lines.find((line) => line.req?.id === 'signed-out-1')).not.toHaveProperty('userId');
    } finally {
      await t.close();
    }
  });

  it('never hold a set-password token or a secret query parameter', async () => {
    const t = await createTestApp();
    try {
      const token = 'Zq3vLkP0aTu9XwY2bC5dE8fG1hJ4kM7nR6sQ0tV3wx';
      const requests = [
        ['/api/set-password/', t.agent().get(`/api/set-password/${token}`)],
        ['/set-password/', t.agent().get(`/set-password/${token}`)],
        ['/set-password/ post', t.agent().post(`/api/set-password/${token}`).send({ password: 'a new password 123' })],
        ['query', t.agent().get(`/api/events?page=2&token=${token}&api_secret=${token}x&Password=${token}y&sort=name`)],
      ] as const;
      for (const [what, request] of requests) expect((await request).status, what).toBeLessThan(500);
      await waitUntil(() => completionLines(t.logLines).length >= requests.length, 'the completion lines');
      const urls = completionLines(t.logLines).map((line) => line.req?.url);
      expect(urls).toEqual([
        '/api/set-password/[redacted]',
        '/set-password/[redacted]',
        '/api/set-password/[redacted]',
        '/api/events?page=2&token=[redacted]&api_secret=[redacted]&Password=[redacted]&sort=name',
      ]);
      expect(t.logLines.join('\n')).not.toContain(token);
    } finally {
      await t.close();
    }
  });
});
