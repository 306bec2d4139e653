import { controlCall } from "../../farm/control-client.ts";
import { openFarm } from "../../farm/open-farm.ts";
import { UsageError } from "../errors.ts";

/** Options of `wirebench world create`. */
export interface WorldCreateOptions {
  task?: string;
  vendors?: string;
  seed: string;
  checkpoint: string;
  json?: boolean;
  farm?: string;
}

function parseInt10(name: string, raw: string): number {
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

/** Parses `ats=staffline,hris=hirewire`. */
export function parseVendorRoles(raw: string): Record<string, string> {
  const roles: Record<string, string> = {};
  for (const pair of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [role, vendor, ...rest] = pair.split("=");
    if (!role || !vendor || rest.length) throw new UsageError(`--vendors takes role=vendor pairs separated by commas, got "${pair}"`);
    roles[role] = vendor;
  }
  if (!Object.keys(roles).length) throw new UsageError("--vendors names no role");
  return roles;
}

/** `wirebench world create`: creates a world on a running farm and prints how to reach it. */
export async function worldCreate(opts: WorldCreateOptions): Promise<void> {
  if (!opts.task && !opts.vendors) throw new UsageError("give --task T or --vendors role=vendor[,role=vendor]");
  if (opts.task && opts.vendors) throw new UsageError("give either --task or --vendors, not both");
  const seed = parseInt10("seed", opts.seed);
  const body = opts.task ? { task: opts.task, seed } : { vendors: parseVendorRoles(opts.vendors!), seed, checkpoint: parseInt10("checkpoint", opts.checkpoint) };
  const farm = await openFarm(opts.farm, "require");
  try {
    const world = await controlCall<{ world: string; vendors: Record<string, { vendor: string; baseUrl: string; docsUrl: string; env: Record<string, string> }> }>(farm, "POST", "/v1/worlds", body);
    if (opts.json) {
      console.log(JSON.stringify(world, null, 2));
      return;
    }
    console.log(`world ${world.world} (seed ${seed}) on ${farm.url}`);
    for (const [role, v] of Object.entries(world.vendors)) {
      console.log(`\n[${role}] ${v.vendor}  ${v.baseUrl}`);
      for (const [k, val] of Object.entries(v.env)) console.log(`  export ${k}=${val}`);
    }
  } finally {
    await farm.close();
  }
}
