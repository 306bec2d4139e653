/**
 * @module dev-token
 * The development admin token: what `npm run dev` and the local farm's
 * commands use when no token is given. Published in this repository, so a
 * farm reachable off loopback must never accept it.
 */
export const DEV_ADMIN_TOKEN = "wb-admin-local-dev";

/** Whether a request reached the farm on a loopback address (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}
