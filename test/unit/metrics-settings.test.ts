import { describe, expect, it } from 'vitest';
import { loadConfig } from '@config/env.js';

const base = { NODE_ENV: 'test', SESSION_SECRET: 's'.repeat(40) } as const;

describe('metrics settings', () => {
  it('leave metrics off by default', () => {
    expect(loadConfig({ ...base, METRICS_TOKEN: '', WORKER_METRICS_PORT: '' }, { cwd: '/tmp' }).metrics).toEqual({
      token: undefined,
      workerPort: undefined,
    });
  });

  it('read the token and the worker port', () => {
    const config = loadConfig({ ...base, METRICS_TOKEN: 'a-long-enough-token', WORKER_METRICS_PORT: '9464' }, { cwd: '/tmp' });
    expect(config.metrics).toEqual({ token: 'a-long-enough-token', workerPort: 9464 });
  });

  it('refuse a short token, a comment read as the token, and a port out of range', () => {
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'short' }, { cwd: '/tmp' })).toThrow(/METRICS_TOKEN: must be at least 16/);
    expect(() => loadConfig({ ...base, METRICS_TOKEN: '# the token Prometheus sends' }, { cwd: '/tmp' })).toThrow(
      /METRICS_TOKEN: begins with "#"/,
    );
    expect(() => loadConfig({ ...base, WORKER_METRICS_PORT: '70000' }, { cwd: '/tmp' })).toThrow(/WORKER_METRICS_PORT/);
    expect(() => loadConfig({ ...base, WORKER_METRICS_PORT: 'metrics' }, { cwd: '/tmp' })).toThrow(/WORKER_METRICS_PORT/);
  });
});
