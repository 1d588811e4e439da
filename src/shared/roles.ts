/**
 * The three roles (issue 13): an admin does everything, including users and restoring deleted records; staff use
 * every record screen and action of the spec; a viewer reads everything and changes nothing. Each role includes
 * the ones below it.
 */
export const ROLES = ['admin', 'staff', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, staff: 1, admin: 2 };

/** Whether someone with `role` may do what needs `needed`. The UI asks this to hide what the services refuse. */
export const roleAllows = (role: Role, needed: Role): boolean => RANK[role] >= RANK[needed];

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', staff: 'Staff', viewer: 'Viewer' };
