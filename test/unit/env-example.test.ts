import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, SETTING_NAMES } from '@config/env.js';

describe('.env.example', () => {
  const text = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
  const listed = [...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);

  // Settings other parts of the program read outside this schema (LOG_FORMAT, PACER_HOME, METRICS_TOKEN…) are listed too.
  it('lists every setting the configuration reads', () => {
    expect(SETTING_NAMES.filter((name) => !listed.includes(name))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('holds values the configuration accepts', () => {
    const values = Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(\S*)/gm)].map((match) => [match[1]!, match[2]!.trim()]));
    expect(() =>
      loadConfig({ ...values, NODE_ENV: 'test', BCRYPT_COST: '4', SESSION_SECRET: 's'.repeat(40) }, { cwd: '/tmp' }),
    ).not.toThrow();
  });

  it('reads the job and start-up settings', () => {
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        REDIS_URL: 'redis://127.0.0.1:6379',
        WORKER_CONCURRENCY_IMPORT: '4',
        MIGRATE_ON_START: 'false',
        SYNC_SCHEDULE: '*/30 * * * *',
        SESSION_SECRET: 's'.repeat(40),
      },
      { cwd: '/tmp' },
    );
    expect(config.migrateOnStart).toBe(false);
    expect(config.jobs).toMatchObject({ redisUrl: 'redis://127.0.0.1:6379', concurrency: { import: 4, sync: 1, newsletter: 1 } });
    expect(config.syncSchedule).toBe('*/30 * * * *');
    expect(() => loadConfig({ NODE_ENV: 'test', SYNC_SCHEDULE: 'every hour' }, { cwd: '/tmp' })).toThrow(
      /SYNC_SCHEDULE: must be a cron expression/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', REDIS_URL: 'localhost:6379' }, { cwd: '/tmp' })).toThrow(
      /REDIS_URL: must start with redis:\/\//,
    );
  });
});
