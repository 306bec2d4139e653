import { readFileSync } from "node:fs";
import type { Config } from "./config.ts";
import { type Candidate, explain, HireWire, Maintenance } from "./hirewire.ts";
import { readState, writeJson } from "./state.ts";

/** One entry of the agency file. */
interface Placement {
  ref: string;
  given_name: string;
  family_name: string;
  email: string;
  role: string;
  stages: string[];
}

interface AgencyFile {
  file: string;
  placements: Placement[];
}

/** What we know of one placement of one file. */
interface Progress {
  /** Stages applied so far, in order (a prefix of the placement's stages). */
  applied: string[];
  /** The candidate's stage as HireWire last told us. */
  stage: string | null;
  refused: { at: string; error: string } | null;
}

/**
 * Our own memory, kept under OUTPUT_DIR: the candidate of each placement ref
 * (a ref is one person for good) and each file's progress per ref.
 */
interface PushState {
  candidates: Record<string, number>;
  files: Record<string, Record<string, Progress>>;
}

interface ResultRow {
  ref: string;
  status: "done" | "refused" | "pending";
  candidate_id: number | null;
  stage: string | null;
  refused_at: string | null;
  error: string | null;
}

const STATE = "push-state.json";
const RESULT = "push_result.json";

/** Keys derived from the placement, so a retry in any later run presents the same key. */
const createKey = (ref: string) => `kc-create:${ref}`;
const moveKey = (file: string, ref: string, index: number, stage: string) => `kc-move:${file}:${ref}:${index}:${stage}`;

function loadFile(): AgencyFile {
  return JSON.parse(readFileSync(new URL("../input/placements.json", import.meta.url), "utf8")) as AgencyFile;
}

export async function push(config: Config): Promise<number> {
  const client = new HireWire(config);
  const agency = loadFile();
  const state = readState<PushState>(config.outputDir, STATE, { candidates: {}, files: {} });
  const progress = (state.files[agency.file] ??= {});
  const save = () => writeJson(config.outputDir, STATE, state);
  const placements = [...agency.placements].sort((a, b) => (a.ref < b.ref ? -1 : 1));

  let maintenance: Maintenance | null = null;
  try {
    for (const p of placements) await apply(client, agency.file, p, state, (progress[p.ref] ??= { applied: [], stage: null, refused: null }), save);
  } catch (err) {
    if (!(err instanceof Maintenance)) throw err;
    maintenance = err;
    save();
  }

  // HireWire's own record of each candidate, unless it is down for maintenance (then what it last told us).
  const rows: ResultRow[] = [];
  for (const p of placements) {
    const pr = progress[p.ref] ?? { applied: [], stage: null, refused: null };
    const id = state.candidates[p.ref] ?? null;
    let stage = id === null ? null : pr.stage;
    if (id !== null && !maintenance) {
      try {
        stage = ((await client.ok("GET", `/v1/candidates/${id}`)).body as Candidate).stage;
      } catch (err) {
        if (!(err instanceof Maintenance)) throw err;
        maintenance = err;
      }
    }
    const done = !pr.refused && id !== null && pr.applied.length === p.stages.length;
    rows.push({
      ref: p.ref,
      status: pr.refused ? "refused" : done ? "done" : "pending",
      candidate_id: id,
      stage,
      refused_at: pr.refused?.at ?? null,
      error: pr.refused?.error ?? null,
    });
  }
  writeJson(config.outputDir, RESULT, rows);
  const count = (s: string) => rows.filter((r) => r.status === s).length;
  console.error(`${count("done")} done, ${count("refused")} refused, ${count("pending")} pending`);
  if (maintenance) {
    console.error(`${maintenance.message}: stopped; the next run continues where this one stopped`);
    return 75;
  }
  return 0;
}

/** One placement's chain: the create (once per ref, ever), then each listed stage not yet applied. */
async function apply(client: HireWire, file: string, p: Placement, state: PushState, pr: Progress, save: () => void): Promise<void> {
  if (pr.refused) return;
  if (state.candidates[p.ref] === undefined) {
    const body = { name: p.given_name, surname: p.family_name, email: p.email, role: p.role };
    const a = await client.call("POST", "/v1/candidates", { body, key: createKey(p.ref) });
    if (a.status === 422) {
      pr.refused = { at: "create", error: explain(a.body) };
      save();
      return;
    }
    if (a.status < 200 || a.status >= 300) throw new Error(`create ${p.ref} answered ${a.status}: ${explain(a.body)}`);
    const created = a.body as Candidate;
    state.candidates[p.ref] = created.id;
    pr.stage = created.stage;
    save();
  }
  const id = state.candidates[p.ref];
  for (let i = pr.applied.length; i < p.stages.length; i++) {
    const stage = p.stages[i];
    const a = await client.call("POST", `/v1/candidates/${id}/stage`, { body: { stage }, key: moveKey(file, p.ref, i, stage) });
    if (a.status === 422) {
      pr.refused = { at: stage, error: explain(a.body) };
      save();
      return;
    }
    if (a.status < 200 || a.status >= 300) throw new Error(`move ${p.ref} to ${stage} answered ${a.status}: ${explain(a.body)}`);
    pr.applied.push(stage);
    pr.stage = (a.body as Candidate).stage;
    save();
  }
}
