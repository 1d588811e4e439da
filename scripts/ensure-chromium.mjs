// Browser tests drive Debian's Chromium. On a fresh machine, install it (as root, through apt) before the tests.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const executable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(executable)) {
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${executable}: install it with \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  console.error('Installing Chromium for the browser tests (apt-get install chromium)…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
