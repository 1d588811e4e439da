import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { SETTING_NAMES } from '@config/env.js';
import { createTestApp } from '../helpers/app.js';
import { runPacer } from '../helpers/cli-io.js';
import { pacerNodeOptions } from '@scripts/pacer-node-options.mjs';

/**
 * The Dockerfile and compose.yaml cannot be built here (no Docker engine on the machines that run the suite), so
 * they are read: their commands must be the ones package.json and the CLI offer, and compose must wire the four
 * services as the README describes.
 */

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; bin: Record<string, string> };

interface Instruction {
  stage: string;
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), each with its stage's name. */
function dockerfile(): Instruction[] {
  const lines = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  let stage = '';
  return lines.map((line) => {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword === 'FROM') stage = /\sAS\s+(\S+)/i.exec(args)?.[1] ?? '';
    return { stage, keyword, args };
  });
}

interface ComposeService {
  build?: string;
  logging?: { driver: string; options: Record<string, string> };
  ports?: string[];
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
}

const compose = parseYaml(read('compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};

describe('Dockerfile', () => {
  const steps = dockerfile();
  const runtime = steps.filter((step) => step.stage === 'runtime');
  const stages = new Set(steps.map((step) => step.stage));

  it('builds in one stage and runs from another with only the production dependencies and the build output', () => {
    expect(steps.at(-1)!.stage).toBe('runtime');
    const runs = steps.filter((step) => step.keyword === 'RUN').map((step) => step.args);
    for (const script of runs.flatMap((run) => [...run.matchAll(/npm run (\S+)/g)].map((match) => match[1]!)))
      expect(pkg.scripts, `npm run ${script}`).toHaveProperty(script);
    const install = (stage: string) => steps.find((step) => step.stage === stage && /npm ci\b/.test(step.args))!.args;
    expect(install('build')).not.toContain('--omit=dev');
    expect(install('production-dependencies')).toContain('--omit=dev');
    const copiedFrom = runtime
      .filter((step) => step.keyword === 'COPY' && step.args.startsWith('--from='))
      .map((step) => /--from=(\S+)\s+(\S+)/.exec(step.args)!.slice(1, 3).join(' '));
    expect(copiedFrom.sort()).toEqual(['build /app/dist', 'build /app/public', 'production-dependencies /app/node_modules']);
    for (const step of copiedFrom) expect(stages).toContain(step.split(' ')[0]);
  });

  it('starts the built server as npm start does, as a user other than root', () => {
    const cmd = JSON.parse(runtime.find((step) => step.keyword === 'CMD')!.args) as string[];
    // npm start builds when stale, then runs the built server: the image runs that same file.
    expect(pkg.scripts.start!.split(' && ').at(-1)).toBe(cmd.join(' '));
    const user = runtime.find((step) => step.keyword === 'USER')?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(read('bin/pacer.js')).toContain("'../dist/cli.js'");
    expect(runtime.find((step) => step.keyword === 'COPY' && step.args.startsWith('bin '))).toBeDefined();
  });

  it('checks /healthz, which the server answers', async () => {
    const check = runtime.find((step) => step.keyword === 'HEALTHCHECK')!.args;
    expect(check).toContain('/healthz');
    const t = await createTestApp();
    try {
      await t.agent().get('/healthz').expect(200);
    } finally {
      await t.close();
    }
  });

  it('documents MIGRATE_ON_START and sets only settings the server reads', () => {
    expect(read('Dockerfile')).toMatch(/MIGRATE_ON_START=false[^\n]*\n[^\n]*pacer db migrate/);
    const env = runtime
      .filter((step) => step.keyword === 'ENV')
      .flatMap((step) => [...step.args.matchAll(/([A-Z_]+)=/g)].map((m) => m[1]!));
    expect(env).toContain('MIGRATE_ON_START');
    for (const name of env) expect(SETTING_NAMES).toContain(name);
    const ignored = read('.dockerignore').split('\n');
    for (const kept of ['node_modules', '.env', 'dist', 'data']) expect(ignored).toContain(kept);
  });
});

describe('compose.yaml', () => {
  const { services } = compose;

  it('runs the app, a worker, MariaDB and Redis, app and worker from the one image', () => {
    expect(Object.keys(services).sort()).toEqual(['app', 'mariadb', 'redis', 'worker']);
    for (const name of ['app', 'worker']) {
      expect(services[name]).toMatchObject({ build: '.', image: 'pacer-crm', env_file: '.env' });
      const env = services[name]!.environment!;
      expect(env.DATABASE_URL).toMatch(/^mysql:\/\/pacer:.*@mariadb:3306\/pacer$/);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      for (const setting of Object.keys(env)) expect(SETTING_NAMES, `${name}: ${setting}`).toContain(setting);
    }
    expect(services.app!.environment!.MIGRATE_ON_START).toBe('true');
  });

  it('starts the app once MariaDB and Redis are healthy, and the worker once the app is', () => {
    const healthy = (service: string) =>
      Object.entries(services[service]!.depends_on ?? {}).filter(([, on]) => on.condition === 'service_healthy');
    expect(healthy('app').map(([name]) => name)).toEqual(['mariadb', 'redis']);
    expect(healthy('worker').map(([name]) => name)).toEqual(['mariadb', 'redis', 'app']);
    expect(services.mariadb!.healthcheck!.test).toBeDefined();
    expect(services.redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(services.worker!.healthcheck).toEqual({ disable: true });
  });

  it('runs `pacer worker` from the built CLI, with the node options the pacer command starts with', async () => {
    const command = services.worker!.command!;
    const script = command.indexOf('dist/cli.js');
    expect(command[0]).toBe('node');
    // The node options of bin/pacer.js's first line: imports run in the worker too.
    const pacerOptions = pacerNodeOptions();
    expect(pacerOptions).toContain('--max-semi-space-size=4');
    expect(command.slice(1, script)).toEqual(pacerOptions);
    const { code, out } = await runPacer({}, [...command.slice(script + 1), '--help']);
    expect(code).toBe(0);
    expect(out).toContain('Usage: pacer worker');
  });

  it('keeps data in named volumes and lists the S3 settings, commented out', () => {
    const declared = Object.keys(compose.volumes);
    const mounted = Object.values(services).flatMap((service) => (service.volumes ?? []).map((volume) => volume.split(':')[0]!));
    expect(new Set(mounted)).toEqual(new Set(declared));
    expect(declared.sort()).toEqual(['mariadb', 'redis', 'uploads']);
    const text = read('compose.yaml');
    for (const setting of [
      'STORAGE',
      'S3_BUCKET',
      'S3_ENDPOINT',
      'S3_REGION',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
    ])
      expect(text).toMatch(new RegExp(`^\\s*# ${setting}: `, 'm'));
  });

  it('rotates the log of every service', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.logging, name).toMatchObject({
        driver: 'json-file',
        options: { 'max-size': expect.any(String), 'max-file': expect.any(String) },
      });
    }
  });

  it('offers a commented Caddy service that, uncommented, fronts the app with TLS', () => {
    const text = read('compose.yaml');
    // The commented block, uncommented: the `caddy:` service and its two volumes.
    const uncommented = text
      .replace(/^ {2}# (caddy:\n(?: {2}# {3}.*\n)+)/m, (_, block: string) => `  ${block.replace(/^ {2}# /gm, '  ')}`)
      .replace(/^ {2}# (caddy-(?:data|config):)$/gm, '  $1');
    expect(uncommented).not.toBe(text);
    const fronted = parseYaml(uncommented, { merge: true }) as typeof compose;
    const caddy = fronted.services.caddy!;
    expect(caddy.logging).toEqual(services.app!.logging);
    expect(caddy.ports).toContain('443:443');
    expect(caddy.depends_on).toEqual({ app: { condition: 'service_healthy' } });
    const caddyfile = caddy.volumes!.find((volume) => volume.endsWith(':/etc/caddy/Caddyfile:ro'))!.split(':')[0]!;
    expect(read(`${caddyfile.replace('./', '')}.example`)).toMatch(/reverse_proxy app:3000/);
    for (const volume of caddy.volumes!.filter((v) => !v.startsWith('.'))) expect(fronted.volumes).toHaveProperty(volume.split(':')[0]!);
    // Caddy is the one proxy in front: the app must trust exactly one hop.
    expect(text).toMatch(/TRUST_PROXY=1 \(Caddy is the one proxy in front/);
  });
});
