import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseDotEnv } from 'dotenv';
import { CronExpressionParser } from 'cron-parser';
import * as z from 'zod';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalUrl = z.preprocess(emptyToUndefined, z.url({ message: 'must be a URL such as https://example.org' }).optional());
const optionalText = z.preprocess(emptyToUndefined, z.string().optional());

/** Express's `trust proxy`: how many proxies are in front, or which addresses are (names, IPs, subnets), or all. */
type TrustProxy = boolean | number | string;

const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** One entry of a `trust proxy` list: a name Express knows, an IP, or a subnet (prefix length or netmask). */
function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.has(entry)) return true;
  const [address = '', prefix, ...extra] = entry.split('/');
  const version = isIP(address);
  const validPrefix =
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)) ||
    (version === 4 && isIP(prefix) === 4);
  return version !== 0 && extra.length === 0 && validPrefix;
}

/**
 * A whole number is a count of proxies (Express reads the string "1" as the address 0.0.0.1, which trusts
 * nothing); anything else is a list Express would refuse at start-up with a stack trace, so it is checked here.
 */
const trustProxySetting = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .transform((value, context): TrustProxy => {
      if (/^\d+$/.test(value)) return Number(value);
      if (value === 'true' || value === 'false') return value === 'true';
      if (value.split(',').every((entry) => isProxyAddress(entry.trim()))) return value;
      context.addIssue({
        code: 'custom',
        message:
          'must be the number of proxies in front (e.g. 1), true, or addresses separated by commas (loopback, linklocal, uniquelocal, IPs, subnets)',
      });
      return z.NEVER;
    })
    .optional(),
);

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .default('sqlite:data/pacer.sqlite')
    .refine((v) => /^(sqlite:|mysql:\/\/|mariadb:\/\/)/.test(v), {
      message: 'must start with sqlite: (e.g. sqlite:data/pacer.sqlite) or mysql:// (e.g. mysql://user:pass@host:3306/pacer)',
    }),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters long').optional()),
  SESSION_SECRET_PREVIOUS: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters long').optional()),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(120),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
  COOKIE_SECURE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  TRUST_PROXY: trustProxySetting,
  UPLOAD_DIR: z.string().default('data/uploads'),
  STORAGE: z.preprocess(emptyToUndefined, z.enum(['local', 's3'], { message: 'must be local or s3' }).default('local')),
  S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens')
      .optional(),
  ),
  S3_ENDPOINT: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL such as http://minio:9000' }).optional(),
  ),
  S3_REGION: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as eu-west-1')
      .default('us-east-1'),
  ),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['true', 'false'], { message: 'must be true or false' }).default('false')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.preprocess(emptyToUndefined, z.enum(['json', 'pretty'], { message: 'must be json or pretty' }).optional()),
  PACER_HOME: optionalText,
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
  API_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(20),
  DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  WORDPRESS_URL: optionalUrl,
  WORDPRESS_USER: optionalText,
  WORDPRESS_APP_PASSWORD: optionalText,
  APP_URL: optionalUrl,
  PUBLIC_SITE_URL: optionalUrl,
  MAILCHIMP_API_KEY: optionalText,
  MAILCHIMP_BASE_URL: optionalUrl,
  HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(15000),
  MIGRATE_ON_START: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('true')),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^rediss?:\/\//.test(v), { message: 'must start with redis:// or rediss:// (e.g. redis://127.0.0.1:6379)' })
      .optional(),
  ),
  QUEUE_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,60}$/, 'must be letters, digits, - or _')
      .default('pacer'),
  ),
  WORKER_CONCURRENCY_IMPORT: z.coerce.number().int().min(1).max(50).default(1),
  WORKER_CONCURRENCY_SYNC: z.coerce.number().int().min(1).max(50).default(1),
  WORKER_CONCURRENCY_NEWSLETTER: z.coerce.number().int().min(1).max(50).default(1),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  JOB_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  JOB_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(5000),
  WEBHOOKS_ALLOW_PRIVATE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(1).max(600_000).default(5000),
  SYNC_SCHEDULE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => isCronExpression(v), { message: 'must be a cron expression such as */30 * * * *' })
      .optional(),
  ),
  BACKUP_SCHEDULE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => isCronExpression(v), { message: 'must be a cron expression such as 30 2 * * *' })
      .optional(),
  ),
  BACKUP_DIR: z.preprocess(emptyToUndefined, z.string().default('data/backups')),
  BACKUP_KEEP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(14)),
  BACKUP_BEFORE_MIGRATE: z.preprocess(emptyToUndefined, z.enum(['true', 'false'], { message: 'must be true or false' }).default('false')),
  BACKUP_NICE: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a whole number from 0 to 19' })
      .int('must be a whole number from 0 to 19')
      .min(0, 'must be a whole number from 0 to 19')
      .max(19, 'must be a whole number from 0 to 19')
      .default(10),
  ),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^smtps?:\/\//.test(v), {
        message: 'must start with smtp:// or smtps:// (e.g. smtp://user:pass@mail.example.org:587)',
      })
      .optional(),
  ),
  MAIL_FROM: optionalText,
  ORG_TIME_ZONE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => isTimeZone(v), { message: 'must be an IANA time zone such as Australia/Sydney' })
      .default('UTC'),
  ),
  TASK_DIGEST_AT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:MM, e.g. 07:30')
      .default('07:30'),
  ),
  // A value beginning with '#' is refused with every other setting's (commentsReadAsValues).
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters long').optional()),
  WORKER_METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
});

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isCronExpression(value: string): boolean {
  if (value.trim().split(/\s+/).length !== 5) return false;
  try {
    CronExpressionParser.parse(value);
    return true;
  } catch {
    return false;
  }
}

type RawEnv = z.infer<typeof EnvSchema>;

/** Every setting read from the environment (.env.example lists each one). */
export const SETTING_NAMES = Object.keys(EnvSchema.shape);

export interface Config {
  env: RawEnv['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl: string;
  sessionSecret: string;
  /** The secret before the last rotation: its cookies still verify (and are signed again with sessionSecret). */
  sessionSecretPrevious?: string;
  sessionIdleMs: number;
  sessionMaxMs: number;
  cookieSecure: boolean;
  trustProxy: TrustProxy | undefined;
  /** Uploaded files stay on this machine's disk, or go to a bucket several processes share. */
  storage: StorageSettings;
  /** The local store (STORAGE=local), and on every backend the scratch space of uploads being received. */
  uploadDir: string;
  logLevel: RawEnv['LOG_LEVEL'];
  /** Unset: plain lines on a terminal, JSON lines otherwise (src/context/logger.ts). */
  logFormat: RawEnv['LOG_FORMAT'];
  bcryptCost: number;
  /** Requests per second one API token may make (each process counts its own). */
  apiTokenRateLimit: number;
  dbAcquireTimeoutMs: number;
  httpTimeoutMs: number;
  wordpress: { url?: string; user?: string; appPassword?: string; publicSiteUrl?: string };
  mailchimp: { apiKey?: string; baseUrl?: string };
  /** Set-password links are emailed when both are set. */
  mail: { smtpUrl?: string; from?: string };
  /** This CRM's own address as its users reach it (https://crm.example.org): links in emails sent unasked use it. */
  appUrl?: string;
  /** Bring the schema up to date when the server starts (off when migrations run as a release step). */
  migrateOnStart: boolean;
  jobs: JobSettings;
  webhooks: WebhookSettings;
  /** A cron expression: run an incremental sync of every kind on it (once per tick across processes). */
  syncSchedule?: string;
  /** ORG_TIME_ZONE: tasks' due days and times and the digest's hour are in this zone. */
  orgTimeZone: string;
  /** TASK_DIGEST_AT: HH:MM in orgTimeZone. */
  taskDigestAt: string;
  metrics: MetricsSettings;
  backup: BackupSettings;
}

/** Backups (`pacer db backup`, the scheduled job, the settings panel). */
interface BackupSettings {
  /** The folder of archives, absolute. */
  dir: string;
  /** Archives kept in it by the scheduled job and the panel's "Back up now" (the newest). */
  keep: number;
  /** A cron expression: take a backup on it (once per tick across processes). */
  schedule?: string;
  /** MIGRATE_ON_START takes a backup first when there are migrations to apply. */
  beforeMigrate: boolean;
  /** The niceness a backup runs at (`pacer db backup`, and the job's child process); 0 leaves it as it is. */
  nice: number;
}

/** Webhook deliveries (docs/webhooks.md). */
interface WebhookSettings {
  /** Endpoints may resolve to private or loopback addresses (tests, a receiver on the same network). */
  allowPrivate: boolean;
  /** One attempt's limit, connection to answer. */
  timeoutMs: number;
  /** The first retry's delay; later ones follow the schedule scaled from it (5 s → about a day in all). */
  backoffMs: number;
}

/** Prometheus metrics: served only when a token is set, and only to a scraper that sends it. */
interface MetricsSettings {
  /** Unset: /metrics is an unknown path (404). Set: `Authorization: Bearer <token>` is required. */
  token?: string;
  /** The worker serves the same metrics on this port when set. */
  workerPort?: number;
}

export type StorageBackend = 'local' | 's3';

interface StorageSettings {
  backend: StorageBackend;
  /** Read whatever STORAGE says, so `pacer files migrate --to s3` can copy there before the switch. */
  s3: S3Settings;
}

export interface S3Settings {
  /** Required when STORAGE=s3 (and to migrate files to s3). */
  bucket?: string;
  /** An S3-compatible service (MinIO, R2, …); unset for AWS itself. */
  endpoint?: string;
  region: string;
  /** Both or neither: without them the SDK's own chain applies (AWS_* variables, an instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path (http://host/bucket/key) rather than the host name, as most S3-compatible services need. */
  forcePathStyle: boolean;
}

/** Background jobs: BullMQ on Redis when redisUrl is set, else inside the server process. */
interface JobSettings {
  redisUrl?: string;
  /** BullMQ key prefix: processes sharing one Redis for different databases need different prefixes. */
  queuePrefix: string;
  /** Jobs a worker process runs at once, per job type. */
  concurrency: { import: number; sync: number; newsletter: number; backup: number; 'general-import': number };
  /** How long a job's holder may go silent before another process takes the job over. */
  leaseMs: number;
  /** Attempts in all for a job that fails for a passing reason (network, 429/5xx, deadlocks). */
  attempts: number;
  backoffMs: number;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function readDotEnv(file: string): Record<string, string> {
  return existsSync(file) ? parseDotEnv(readFileSync(file)) : {};
}

/**
 * The embedded default keeps its generated secret under data/ so sessions survive restarts without any set-up.
 * Written atomically so two processes starting together never read half a secret.
 */
function embeddedSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, secret, { mode: 0o600 });
  renameSync(tmp, file);
  return secret;
}

/**
 * A value that begins with `#` is a comment read as the value: docker compose's env_file reads `KEY=   # note` as
 * `# note` (dotenv reads it as empty), which would pass as a 30-character SESSION_SECRET or fail later as a
 * URL. No setting has such a value, so each one is refused by name.
 */
function commentsReadAsValues(values: Record<string, unknown>): string[] {
  return SETTING_NAMES.filter((name) => {
    const value = values[name];
    return typeof value === 'string' && value.trimStart().startsWith('#');
  }).map(
    (name) =>
      `${name}: begins with "#", so it looks like a comment read as the value; in .env, put comments on a line of their own (KEY= then nothing for an empty value)`,
  );
}

/** The checkout (or install) this code runs from: the nearest folder above this file holding our package.json. */
function projectFolder(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(folder, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'pacer-crm') return folder;
    const parent = path.dirname(folder);
    if (parent === folder) return process.cwd();
    folder = parent;
  }
}

/** `sqlite:data/pacer.sqlite` made absolute against the home folder; other URLs (and `sqlite::memory:`) unchanged. */
function anchoredDatabaseUrl(url: string, home: string): string {
  if (!url.startsWith('sqlite:')) return url;
  const file = url.slice('sqlite:'.length);
  if (file === ':memory:' || file.startsWith('/')) return url;
  return `sqlite:${path.resolve(home, file)}`;
}

interface LoadOptions {
  /** The folder .env and relative paths (data/…) are read against; default PACER_HOME, else the project's folder. */
  cwd?: string;
  /**
   * False for the CLI, which starts no sessions: SESSION_SECRET is then neither required in production nor
   * generated under data/ (sessionSecret is empty).
   */
  sessions?: boolean;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Config {
  // Never the current folder: run from elsewhere, `pacer` would read another .env and create data/ there.
  const cwd = options.cwd ?? (source.PACER_HOME ? path.resolve(source.PACER_HOME) : projectFolder());
  const sessions = options.sessions ?? true;
  // Values already in the environment win over .env, as dotenv does.
  const merged = source === process.env ? { ...readDotEnv(path.join(cwd, '.env')), ...source } : { ...source };
  const commentValues = commentsReadAsValues(merged);
  if (commentValues.length) throw new ConfigError(commentValues);
  const parsed = EnvSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  if (sessions && env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    problems.push('SESSION_SECRET: required in production (at least 32 random characters)');
  }
  if (env.NODE_ENV !== 'test' && env.BCRYPT_COST < 12) {
    problems.push('BCRYPT_COST: must be at least 12 outside tests');
  }
  if (env.STORAGE === 's3' && !env.S3_BUCKET) {
    problems.push('S3_BUCKET: required when STORAGE=s3 (the bucket uploaded files are kept in)');
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    const missing = env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
    problems.push(
      `${missing}: required with ${missing === 'S3_ACCESS_KEY_ID' ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} (set both, or neither to use the AWS credential chain)`,
    );
  }
  if (problems.length) throw new ConfigError(problems);

  const config: Config = {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: anchoredDatabaseUrl(env.DATABASE_URL, cwd),
    sessionSecret: env.SESSION_SECRET ?? (sessions ? embeddedSessionSecret(path.join(cwd, 'data')) : ''),
    sessionSecretPrevious: env.SESSION_SECRET_PREVIOUS,
    sessionIdleMs: env.SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: env.SESSION_MAX_HOURS * 3_600_000,
    cookieSecure: env.COOKIE_SECURE ? env.COOKIE_SECURE === 'true' : env.NODE_ENV === 'production',
    trustProxy: env.TRUST_PROXY,
    storage: {
      backend: env.STORAGE,
      s3: {
        bucket: env.S3_BUCKET,
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        credentials:
          env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
            ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
            : undefined,
        forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
      },
    },
    uploadDir: path.resolve(cwd, env.UPLOAD_DIR),
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    bcryptCost: env.BCRYPT_COST,
    apiTokenRateLimit: env.API_TOKEN_RATE_LIMIT,
    dbAcquireTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS,
    httpTimeoutMs: env.HTTP_TIMEOUT_MS,
    wordpress: {
      url: env.WORDPRESS_URL,
      user: env.WORDPRESS_USER,
      appPassword: env.WORDPRESS_APP_PASSWORD,
      publicSiteUrl: env.PUBLIC_SITE_URL,
    },
    mailchimp: { apiKey: env.MAILCHIMP_API_KEY, baseUrl: env.MAILCHIMP_BASE_URL },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    appUrl: env.APP_URL?.replace(/\/+$/, ''),
    migrateOnStart: env.MIGRATE_ON_START === 'true',
    jobs: {
      redisUrl: env.REDIS_URL,
      queuePrefix: env.QUEUE_PREFIX,
      concurrency: {
        import: env.WORKER_CONCURRENCY_IMPORT,
        sync: env.WORKER_CONCURRENCY_SYNC,
        newsletter: env.WORKER_CONCURRENCY_NEWSLETTER,
        // One backup at a time is plenty; two would only compete for the disk.
        backup: 1,
        // The general import shares the import's setting (docs/decisions/0107-general-import.md).
        'general-import': env.WORKER_CONCURRENCY_IMPORT,
      },
      leaseMs: env.JOB_LEASE_SECONDS * 1000,
      attempts: env.JOB_ATTEMPTS,
      backoffMs: env.JOB_BACKOFF_MS,
    },
    webhooks: {
      allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'true',
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      backoffMs: env.WEBHOOK_BACKOFF_MS,
    },
    syncSchedule: env.SYNC_SCHEDULE,
    orgTimeZone: env.ORG_TIME_ZONE,
    taskDigestAt: env.TASK_DIGEST_AT,
    metrics: { token: env.METRICS_TOKEN, workerPort: env.WORKER_METRICS_PORT },
    backup: {
      dir: path.resolve(cwd, env.BACKUP_DIR),
      keep: env.BACKUP_KEEP,
      schedule: env.BACKUP_SCHEDULE,
      beforeMigrate: env.BACKUP_BEFORE_MIGRATE === 'true',
      nice: env.BACKUP_NICE,
    },
  };
  settingsSources.set(config, merged);
  return config;
}

/** The settings each Config was read from, so a child process can be started with the very same ones. */
const settingsSources = new WeakMap<Config, Record<string, unknown>>();

/** The environment a child process needs to read `config` again (the one it was loaded from, else ours). */
export function settingsEnvOf(config: Config): NodeJS.ProcessEnv {
  const source = settingsSources.get(config);
  if (!source) return { ...process.env };
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) if (typeof value === 'string') env[name] = value;
  return env;
}

/**
 * Settings only the web server needs to be coherent (the CLI starts no sessions). The process speaks plain HTTP,
 * so a Secure cookie can only reach a browser through a proxy that terminates TLS, and only a trusted proxy's
 * X-Forwarded-Proto tells the server the browser used HTTPS: without TRUST_PROXY every sign-in would be refused.
 */
export function checkWebServerSettings(config: Config): void {
  if (config.cookieSecure && !config.trustProxy) {
    throw new ConfigError([
      'TRUST_PROXY: required while COOKIE_SECURE is on (the default in production): this server speaks plain HTTP, so ' +
        'the Secure session cookie only works behind a proxy that terminates TLS. Set TRUST_PROXY to that proxy ' +
        '(e.g. TRUST_PROXY=loopback when it runs on this machine, TRUST_PROXY=1 for one proxy in front), or set ' +
        'COOKIE_SECURE=false if the site is only reached over plain HTTP.',
    ]);
  }
}

/** The settings the browser may see: nothing secret. */
export function publicEnv(config: Config) {
  return {
    publicSiteUrl: config.wordpress.publicSiteUrl ?? null,
    wordpressAdminUrl: config.wordpress.url ?? config.wordpress.publicSiteUrl ?? null,
    /** Passkeys need the site's address (their relying party): the sign-in page offers them only then. */
    passkeys: Boolean(config.appUrl),
  };
}
