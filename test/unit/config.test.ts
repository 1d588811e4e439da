import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWebServerSettings, ConfigError, loadConfig, publicEnv } from '@config/env.js';

describe('settings', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-config-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('defaults to the embedded database and keeps a generated session secret under data/', () => {
    const cwd = tempDir();
    const first = loadConfig({}, { cwd });
    // Relative paths are the folder's (PACER_HOME or the project's), never the current folder.
    expect(first.databaseUrl).toBe(`sqlite:${path.join(cwd, 'data', 'pacer.sqlite')}`);
    expect(first.uploadDir).toBe(path.join(cwd, 'data', 'uploads'));
    expect(first.port).toBe(3000);
    expect(first.bcryptCost).toBe(12);
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(cwd, 'data', 'session-secret'), 'utf8')).toBe(first.sessionSecret);
    expect(loadConfig({}, { cwd }).sessionSecret).toBe(first.sessionSecret);
  });

  it('reads data/ paths against PACER_HOME, and asks the CLI for no session secret', () => {
    const home = tempDir();
    const config = loadConfig({ PACER_HOME: home, DATABASE_URL: 'sqlite:db/x.sqlite' });
    expect(config.databaseUrl).toBe(`sqlite:${path.join(home, 'db', 'x.sqlite')}`);
    expect(loadConfig({ PACER_HOME: home, DATABASE_URL: 'sqlite::memory:' }).databaseUrl).toBe('sqlite::memory:');
    const cliHome = tempDir();
    const cli = loadConfig({ NODE_ENV: 'production' }, { cwd: cliHome, sessions: false });
    expect(cli.sessionSecret).toBe('');
    expect(existsSync(path.join(cliHome, 'data', 'session-secret'))).toBe(false);
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' }, { cwd: home })).toThrow(/LOG_FORMAT: must be json or pretty/);
  });

  it('names every bad value in one readable error', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'postgres://x', LOG_LEVEL: 'loud', WORDPRESS_URL: 'not a url' }, { cwd: tempDir() });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(/PORT:/);
      expect(message).toMatch(/DATABASE_URL: must start with sqlite:/);
      expect(message).toMatch(/LOG_LEVEL:/);
      expect(message).toMatch(/WORDPRESS_URL: must be a URL/);
    }
  });

  it('requires SESSION_SECRET in production and bcrypt cost 12 outside tests', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, { cwd: tempDir() })).toThrow(/SESSION_SECRET: required in production/);
    expect(() => loadConfig({ BCRYPT_COST: '10' }, { cwd: tempDir() })).toThrow(/BCRYPT_COST: must be at least 12/);
    const prod = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) }, { cwd: tempDir() });
    expect(prod.cookieSecure).toBe(true);
  });

  it('reads TRUST_PROXY as a count of proxies, true, or addresses, and names anything else', () => {
    const trustProxy = (value: string) => loadConfig({ TRUST_PROXY: value }, { cwd: tempDir() }).trustProxy;
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy('true')).toBe(true);
    expect(trustProxy('loopback')).toBe('loopback');
    expect(trustProxy('10.0.0.0/8, ::1, uniquelocal')).toBe('10.0.0.0/8, ::1, uniquelocal');
    expect(trustProxy('')).toBeUndefined();
    for (const bad of ['yes', 'proxy.example.org', '10.0.0.0/33'])
      expect(() => trustProxy(bad), bad).toThrow(/TRUST_PROXY: must be the number of proxies/);
  });

  it('refuses to serve with Secure cookies unless a TLS proxy is trusted, and says what to set', () => {
    const production = (extra: Record<string, string> = {}) =>
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), ...extra }, { cwd: tempDir() });
    // The CLI loads the same settings and starts no sessions: it keeps working.
    const plain = production();
    expect(() => checkWebServerSettings(plain)).toThrow(ConfigError);
    expect(() => checkWebServerSettings(plain)).toThrow(
      /TRUST_PROXY: required while COOKIE_SECURE is on.*TRUST_PROXY=1.*COOKIE_SECURE=false/s,
    );
    expect(() => checkWebServerSettings(production({ TRUST_PROXY: '0' }))).toThrow(/TRUST_PROXY: required/);
    expect(() => checkWebServerSettings(production({ TRUST_PROXY: '1' }))).not.toThrow();
    expect(() => checkWebServerSettings(production({ TRUST_PROXY: 'loopback' }))).not.toThrow();
    expect(() => checkWebServerSettings(production({ COOKIE_SECURE: 'false' }))).not.toThrow();
    expect(() => checkWebServerSettings(loadConfig({}, { cwd: tempDir() }))).not.toThrow();
  });

  it('reads the S3 storage settings, and names what is missing or malformed', () => {
    const cwd = tempDir();
    expect(loadConfig({}, { cwd }).storage).toEqual({
      backend: 'local',
      s3: { bucket: undefined, endpoint: undefined, region: 'us-east-1', credentials: undefined, forcePathStyle: false },
    });
    const s3 = loadConfig(
      {
        STORAGE: 's3',
        S3_BUCKET: 'pacer-files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      },
      { cwd },
    );
    expect(s3.storage).toEqual({
      backend: 's3',
      s3: {
        bucket: 'pacer-files',
        endpoint: 'http://minio:9000',
        region: 'eu-west-1',
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
        forcePathStyle: true,
      },
    });
    expect(() => loadConfig({ STORAGE: 's3' }, { cwd })).toThrow(/^Invalid settings:\n {2}- S3_BUCKET: required when STORAGE=s3[^\n]*$/);
    expect(() => loadConfig({ STORAGE: 'disk' }, { cwd })).toThrow(/STORAGE: must be local or s3/);
    expect(() => loadConfig({ S3_BUCKET: 'My_Bucket' }, { cwd })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ S3_ENDPOINT: 'minio:9000' }, { cwd })).toThrow(/S3_ENDPOINT: must be an http:\/\/ or https:\/\/ URL/);
    expect(() => loadConfig({ S3_FORCE_PATH_STYLE: 'yes' }, { cwd })).toThrow(/S3_FORCE_PATH_STYLE: must be true or false/);
    expect(() => loadConfig({ S3_ACCESS_KEY_ID: 'key' }, { cwd })).toThrow(/S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID/);
    expect(() => loadConfig({ S3_SECRET_ACCESS_KEY: 'secret' }, { cwd })).toThrow(/S3_ACCESS_KEY_ID: required with S3_SECRET_ACCESS_KEY/);
  });

  it('reads .env for values not already in the environment', () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, '.env'), 'PORT=4321\nLOG_LEVEL=debug\n# comment\n');
    const previous = { PORT: process.env.PORT, LOG_LEVEL: process.env.LOG_LEVEL };
    process.env.LOG_LEVEL = 'warn';
    delete process.env.PORT;
    try {
      const config = loadConfig(process.env, { cwd });
      expect(config.port).toBe(4321);
      expect(config.logLevel).toBe('warn');
    } finally {
      if (previous.PORT === undefined) delete process.env.PORT;
      else process.env.PORT = previous.PORT;
      if (previous.LOG_LEVEL === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = previous.LOG_LEVEL;
    }
  });

  it('reads BACKUP_NICE as a niceness from 0 to 19, 10 by default, and names anything else', () => {
    const cwd = tempDir();
    expect(loadConfig({}, { cwd }).backup.nice).toBe(10);
    expect(loadConfig({ BACKUP_NICE: '0' }, { cwd }).backup.nice).toBe(0);
    expect(loadConfig({ BACKUP_NICE: '19' }, { cwd }).backup.nice).toBe(19);
    expect(loadConfig({ BACKUP_NICE: '' }, { cwd }).backup.nice).toBe(10);
    for (const bad of ['20', '-1', '5.5', 'low'])
      expect(() => loadConfig({ BACKUP_NICE: bad }, { cwd })).toThrow(/BACKUP_NICE: must be a whole number from 0 to 19/);
  });

  it('gives the browser no secrets', () => {
    const config = loadConfig(
      {
        SESSION_SECRET: 's'.repeat(40),
        WORDPRESS_APP_PASSWORD: 'wp-secret',
        MAILCHIMP_API_KEY: 'mc-secret-us1',
        PUBLIC_SITE_URL: 'https://run.example',
      },
      { cwd: tempDir() },
    );
    const exposed = JSON.stringify(publicEnv(config));
    expect(exposed).toContain('https://run.example');
    expect(exposed).not.toMatch(/secret/);
  });
});
