/**
 * @module role-name
 * The one rule for role names (`ats`, `hris`, `old-ats`), shared by task
 * declarations, world creation and the vendor surface. A role is looked up as
 * an own property only: a name such as `constructor` must never reach
 * `Object.prototype`.
 */

/** Lower-case words: a letter, then up to 31 letters, digits or hyphens. */
export const ROLE_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** Roles one world may have. */
export const MAX_ROLES_PER_WORLD = 8;

/** The value a role maps to, if `roles` has that role as its own key. */
export function roleEntry<T>(roles: Record<string, T>, role: string): T | undefined {
  return Object.hasOwn(roles, role) ? roles[role] : undefined;
}
