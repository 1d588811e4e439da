import { ROLE_LABELS, roleAllows, type Role } from '@shared/roles.js';
import type { Actor } from './context.js';
import { forbidden } from './errors.js';

const NEEDS: Record<Exclude<Role, 'viewer'>, string> = {
  staff: 'make changes',
  admin: 'do this (it needs an admin)',
};

/**
 * The one role check. Every write service calls it first, before reading its input, so the API, the pages and the
 * CLI refuse the same things with the same 403 (test/api/role-checks.test.ts walks every write route).
 */
export function requireRole(actor: Actor, needed: Exclude<Role, 'viewer'>): void {
  if (roleAllows(actor.role, needed)) return;
  throw forbidden(`Your role (${ROLE_LABELS[actor.role]}) does not allow you to ${NEEDS[needed]}. Ask an admin if you need it.`);
}
