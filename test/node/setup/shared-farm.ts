import type { TestProject } from "vitest/node";
import { startLocalFarm, type LocalFarm } from "../../../scripts/farm/local-farm.ts";
import { TEST_ADMIN } from "../farm-token.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The farm every Node test file shares (see test/node/farm.ts); each file makes its own worlds in it. */
    sharedFarm: { url: string; adminToken: string; storage: "persisted" | "ram" | "temporary-disk" };
  }
}

let farm: LocalFarm | undefined;

/**
 * Starts one in-memory farm for the whole Node project: a farm start costs a
 * few seconds of workerd start-up, and about twenty files need one only to make
 * worlds of their own. Files that stop, restart or persist a farm start their own.
 */
export async function setup(project: TestProject): Promise<void> {
  farm = await startLocalFarm({ port: 0, adminToken: TEST_ADMIN });
  project.provide("sharedFarm", { url: farm.url, adminToken: farm.adminToken, storage: farm.storage });
}

export async function teardown(): Promise<void> {
  await farm?.stop();
}
