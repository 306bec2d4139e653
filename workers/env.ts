/**
 * Bindings of the farm Worker: the ones wrangler.toml declares (`FarmBindings`,
 * which `wrangler types` writes into `worker-configuration.d.ts` beside this
 * file; `npm run types` regenerates it), and the ones bound elsewhere.
 */
export interface Env extends FarmBindings {
  /** Bearer token the control plane requires (a secret in production, `--var` in development, the tests' own binding). */
  WIREBENCH_ADMIN_TOKEN: string;
  /** Public origin of the farm (`https://farm.example`), for vendor base URLs, links and docs; defaults to the origin the control plane is called at. */
  WIREBENCH_PUBLIC_URL?: string;
  /**
   * `public` on a farm reachable off loopback (production's vars; a local farm
   * bound to another interface): the control plane then never trusts a Host
   * header that names loopback. Unset: development (`npm run dev`, the tests).
   */
  WIREBENCH_EXPOSURE?: "public" | "loopback";
  /**
   * `manual` in the workerd tests' config only (vitest.config.ts): each world
   * object then runs on a clock the tests move (`workers/engine/clock.ts`),
   * so they never sleep. Ignored on a public farm; never set in wrangler.toml.
   */
  WIREBENCH_TEST_CLOCK?: string;
  /** A published site to show at `/` (the local farm binds one with `wirebench serve --site`). */
  SITE?: Fetcher;
}
