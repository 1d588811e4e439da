import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

/** A component test fails on any React warning (hydration, keys, act) rather than printing it. */
const fail = (...args: unknown[]) => {
  throw new Error(`console.error/warn during test: ${args.map(String).join(' ')}`);
};
vi.spyOn(console, 'error').mockImplementation(fail);
vi.spyOn(console, 'warn').mockImplementation(fail);

afterEach(() => cleanup());

// findBy*/waitFor poll until their condition holds; the default 1 s deadline failed on a busy 2-core machine.
configure({ asyncUtilTimeout: 10_000 });
