// The node options `pacer` starts with: those on the first line of bin/pacer.js (`#!/usr/bin/env -S node …`), its
// one statement of them. Read by the build (the CLI's code cache is made with them: V8 refuses a cache made with
// other flags), by the benchmarks that run the CLI as `pacer` does, and by the tests that check both.
import { readFileSync } from 'node:fs';

export function pacerNodeOptions() {
  return readFileSync(new URL('../bin/pacer.js', import.meta.url), 'utf8')
    .split('\n', 1)[0]
    .split(/\s+/)
    .filter((word) => word.startsWith('--'));
}
