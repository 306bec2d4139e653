/**
 * The release of the public declarations (vendors and tasks) a farm serves.
 * World ids carry it, so a published world id says which release seeded it;
 * bump it when a change to the declarations changes what a world serves.
 */
export const RELEASE_ID = "r1";
