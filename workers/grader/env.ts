/**
 * Bindings of the grader Worker: the archive (`DB`) and the farm's world
 * Durable Objects (`WORLD`, bound with `script_name`), as
 * workers/grader/wrangler.toml declares them (`GraderBindings`, which
 * `wrangler types` writes into `worker-configuration.d.ts` beside this file;
 * `npm run types` regenerates it).
 */
export type GraderEnv = GraderBindings;
