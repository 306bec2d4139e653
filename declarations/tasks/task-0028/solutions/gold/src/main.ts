// Harbour screening_sync: brings RecruitOS in line with the panel's decisions where it should.
import { loadConfig } from "./config.ts";
import { type Decision, loadDecisions } from "./decisions.ts";
import { RecruitOS } from "./recruitos.ts";
import { type ReportRow, writeReport } from "./report.ts";

/** RecruitOS's application stages, as its documentation lists them. */
const STAGES = ["sourced", "contacted", "submitted", "client_interview", "offer", "placed"];

interface Application {
  id: number;
  stage: string;
  disqualified: boolean;
  updatedAt: number;
}

const command = process.argv[2];
if (command !== "repair") {
  console.error("usage: node src/main.ts repair");
  process.exit(2);
}

const config = loadConfig();
const api = new RecruitOS(config);

/** The decision that counts per application: the latest by decided_at as an instant (rows are not in decision order). */
function latestDecisions(all: Decision[]): Map<number, Decision> {
  const out = new Map<number, Decision>();
  for (const d of all) {
    const seen = out.get(d.applicationId);
    if (!seen || d.decidedMs >= seen.decidedMs) out.set(d.applicationId, d);
  }
  return out;
}

/**
 * The application as RecruitOS holds it now, read on its own: revalidated, because single reads
 * can come from a cache that still shows the version before our own write. Null when it is gone.
 */
async function fresh(id: number): Promise<{ app: Application; etag: string } | null> {
  const got = await api.call("GET", `/api/v3/applications/${id}`, { headers: { "cache-control": "no-cache" } });
  if (got.status === 404 || got.status === 410) return null;
  if (got.status !== 200) throw new Error(`application ${id}: ${got.status} ${got.body?.errorMessage ?? ""}`);
  return { app: got.body as Application, etag: got.headers.get("etag") ?? "" };
}

const row = (app: Application, outcome: ReportRow["outcome"], detail = ""): ReportRow => ({ applicationId: app.id, outcome, stage: app.stage, disqualified: app.disqualified, detail });
const missing = (id: number): ReportRow => ({ applicationId: id, outcome: "missing", stage: null, disqualified: null, detail: "" });

/** Whether RecruitOS holds the decision. An empty disqualified is a ruling on the stage only: RecruitOS's value stands either way. */
const holds = (d: Decision, app: Application): boolean => app.stage === d.stage && (d.disqualified === null || app.disqualified === d.disqualified);

/** The outcome rules of the ticket, in order, for an application RecruitOS holds; null means "write it". */
function judged(d: Decision, app: Application): ReportRow | null {
  if (holds(d, app)) return row(app, "in_sync");
  if (app.updatedAt > d.decidedMs) return row(app, "superseded");
  if (!STAGES.includes(d.stage)) return row(app, "refused", `stage ${d.stage} is not a RecruitOS stage (${STAGES.join(" / ")})`);
  return null;
}

async function settle(d: Decision, listed: Application | undefined): Promise<ReportRow> {
  // The cheap probe: the listing decides everything that needs no write.
  if (listed) {
    const settled = judged(d, listed);
    if (settled) return settled;
  }
  /** Whether a write of ours may have landed though its answer was lost (a 5xx after RecruitOS committed it). */
  let lost = false;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const now = await fresh(d.applicationId);
    if (!now) return missing(d.applicationId);
    if (lost && holds(d, now.app)) return row(now.app, "repaired");
    const settled = judged(d, now.app);
    if (settled) return settled;
    const put = await api.call("PATCH", `/api/v3/applications/${d.applicationId}`, {
      body: d.disqualified === null ? { stage: d.stage } : { stage: d.stage, disqualified: d.disqualified },
      headers: { "if-match": now.etag },
    });
    if (put.status === 200) return row(put.body as Application, "repaired");
    if (put.status === 422) return row(now.app, "refused", String(put.body?.errorMessage ?? "refused by RecruitOS"));
    // A 5xx may come after the write landed: read it back (revalidated) before deciding anything.
    if (put.status >= 500) {
      lost = true;
      continue;
    }
    // 412: it changed since we read it; read it again and decide again.
    if (put.status !== 412) throw new Error(`application ${d.applicationId}: PATCH ${put.status} ${put.body?.errorMessage ?? ""}`);
  }
  throw new Error(`application ${d.applicationId}: still changing after three reads`);
}

const decisions = latestDecisions(loadDecisions());
const listed = new Map<number, Application>();
for (const a of (await api.listAll("/api/v3/applications")) as Application[]) listed.set(a.id, a);

const rows: ReportRow[] = [];
for (const id of [...decisions.keys()].sort((a, b) => a - b)) rows.push(await settle(decisions.get(id)!, listed.get(id)));
writeReport(config.outputDir, rows);
const count = (o: string) => rows.filter((r) => r.outcome === o).length;
console.log(`${count("repaired")} repaired, ${count("in_sync")} in sync, ${count("superseded")} superseded, ${count("missing")} missing, ${count("refused")} refused`);
