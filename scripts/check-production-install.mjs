// CI step (.ci/run): the production install works from a clean checkout with no dev dependencies. Clones the
// committed tree into a temp folder, runs `npm ci --omit=dev` (from the npm cache when it can), `npm run build`,
// starts `node dist/server.js` on a temp SQLite database and waits for /healthz and /readyz to answer 200, has it send
// a signed webhook for a record created with an API token; then, with dist/ removed, checks that `pacer --version`
// builds the CLI on first use.
// The install runs without install scripts: compiling better-sqlite3 again would take minutes of a CI that already
// compiled the same version from the same lock file in its own `npm ci`, so that addon's build is copied from there
// (bcrypt loads its bundled prebuild, esbuild its platform package). What this step proves is the dependency set.
import { Buffer } from 'node:buffer';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'pacer-production-install-'));
const checkout = path.join(work, 'pacer');
const DEADLINE_MS = 60_000;
/** Addons whose install script compiles them (the others ship prebuilds). */
const NATIVE_BUILDS = ['better-sqlite3'];

const step = (title, command, args, cwd = checkout) => {
  console.log(`--- ${title}: ${[command, ...args].join(' ')}`);
  execFileSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
};

/** Waits for `check` to answer something truthy, every 200 ms, until the deadline; answers it. */
async function waitFor(check, what) {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const found = await check();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** What the server and `pacer` read: the same database, and webhooks allowed to this machine's receiver. */
const installSettings = {
  DATABASE_URL: `sqlite:${path.join(work, 'pacer.sqlite')}`,
  UPLOAD_DIR: path.join(work, 'uploads'),
  WEBHOOKS_ALLOW_PRIVATE: 'true',
};

/** The built `pacer` (dist/cli.js) on the install's settings; answers its JSON output. */
const pacerJson = (args) =>
  JSON.parse(
    execFileSync(process.execPath, ['dist/cli.js', ...args, '--json'], {
      cwd: checkout,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, NODE_ENV: 'production', ...installSettings },
    }),
  );

/**
 * A receiver that takes only messages whose Standard Webhooks signature verifies (the standardwebhooks package);
 * `next()` resolves with the next one's body.
 */
async function startReceiver() {
  const verified = [];
  let secret = null;
  const receiver = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        verified.push(new Webhook(secret).verify(Buffer.concat(chunks).toString('utf8'), req.headers));
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${receiver.address().port}/hook`,
    useSecret: (value) => (secret = value),
    next: () => waitFor(() => verified.shift(), 'a signed webhook delivery'),
    close: () => {
      receiver.closeAllConnections();
      receiver.close();
    },
  };
}

function startServer() {
  const server = spawn(process.execPath, ['dist/server.js'], {
    cwd: checkout,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      SESSION_SECRET: 'check-production-install-secret-0123456789',
      COOKIE_SECURE: 'false',
      ...installSettings,
      HOST: '127.0.0.1',
      PORT: '0',
    },
  });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk.toString()));
  server.stderr.on('data', (chunk) => (output += chunk.toString()));
  /** Resolves with the port once the server says it listens; rejects if it exits or the deadline passes. */
  const port = waitFor(() => {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    return Number(/listening on http:\/\/localhost:(\d+)/.exec(output)?.[1] ?? 0);
  }, 'the server to listen').catch((error) => {
    throw new Error(`${error.message}\n${output}`);
  });
  return { server, port };
}

const statusOf = (url) =>
  globalThis.fetch(url).then(
    (res) => res.status,
    () => 0,
  );

let server;
let receiver;
try {
  step('clean checkout', 'git', ['clone', '--quiet', root, checkout], work);
  step('install without dev dependencies', 'npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund']);
  for (const addon of NATIVE_BUILDS) {
    const from = path.join(root, 'node_modules', addon);
    const to = path.join(checkout, 'node_modules', addon);
    if (readFileSync(path.join(from, 'package.json'), 'utf8') !== readFileSync(path.join(to, 'package.json'), 'utf8'))
      throw new Error(`${addon}: the checkout's installed version differs from the clean install's; run npm ci first`);
    cpSync(path.join(from, 'build'), path.join(to, 'build'), { recursive: true });
  }
  step('build', 'npm', ['run', 'build']);
  const started = startServer();
  server = started.server;
  const port = await started.port;
  for (const probe of ['/healthz', '/readyz'])
    await waitFor(async () => (await statusOf(`http://127.0.0.1:${port}${probe}`)) === 200, `${probe} to answer 200`);
  console.log(`--- node dist/server.js answers /healthz and /readyz on port ${port}`);
  // The built server sends webhooks from its sending thread (dist/webhook-sender.js): a record created with a token
  // reaches a receiver, signed.
  receiver = await startReceiver();
  const { token } = pacerJson(['tokens', 'create', '--name', 'Production check', '--role', 'staff']);
  receiver.useSecret(pacerJson(['webhooks', 'create', '--url', receiver.url, '--events', 'record.created']).secret);
  // The server reads which endpoints there are at most once a second (src/services/webhooks/outbox.ts).
  await sleep(1500);
  const created = await globalThis.fetch(`http://127.0.0.1:${port}/api/brands`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ brandName: 'Production Check Footwear' }),
  });
  if (created.status !== 201) throw new Error(`POST /api/brands answered ${created.status}: ${await created.text()}`);
  const message = await receiver.next();
  if (message.type !== 'record.created' || message.data?.record?.brandName !== 'Production Check Footwear')
    throw new Error(`the webhook delivered ${JSON.stringify(message)}`);
  console.log('--- the built server sent a signed record.created webhook for a brand created with an API token');
  // The `pacer` launcher of an install never built: it builds the CLI first, then runs the command.
  rmSync(path.join(checkout, 'dist'), { recursive: true, force: true });
  const version = execFileSync(process.execPath, ['bin/pacer.js', '--version'], { cwd: checkout, encoding: 'utf8' }).trim();
  const expected = JSON.parse(readFileSync(path.join(checkout, 'package.json'), 'utf8')).version;
  if (version !== expected) throw new Error(`pacer --version printed ${JSON.stringify(version)}, not ${expected}`);
  console.log(`--- pacer built its CLI on first use and printed its version, ${version}`);
} finally {
  server?.kill('SIGTERM');
  receiver?.close();
  rmSync(work, { recursive: true, force: true });
}
