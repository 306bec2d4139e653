import { buildWorker } from "../../../scripts/farm/build-worker.ts";

/** Builds the Worker bundle once, before test files start farms in parallel. */
export default function setup(): void {
  buildWorker();
}
