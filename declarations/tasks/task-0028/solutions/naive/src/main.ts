// Harbour screening_sync as RecruitOS's documentation describes the work: read each application,
// compare, and PATCH with its ETag in If-Match; a 412 means a consultant changed it first.
import { loadConfig } from "./config.ts";
import { type Decision, loadDecisions } from "./decisions.ts";
import { RecruitOS } from "./recruitos.ts";
import { type ReportRow, writeReport } from "./report.ts";

const command = process.argv[2];
if (command !== "repair") {
  console.error("usage: node src/main.ts repair");
  process.exit(2);
}

const api = new RecruitOS(loadConfig());
const latest = new Map<number, Decision>();
for (const d of loadDecisions()) {
  const seen = latest.get(d.applicationId);
  if (!seen || Date.parse(d.decidedAt) >= Date.parse(seen.decidedAt)) latest.set(d.applicationId, d);
}

const rows: ReportRow[] = [];
for (const d of latest.values()) {
  const got = await api.call("GET", `/api/v3/applications/${d.applicationId}`);
  if (got.status === 404) {
    rows.push({ applicationId: d.applicationId, outcome: "missing", stage: null, disqualified: null, detail: "" });
    continue;
  }
  const app = got.body as { id: number; stage: string; disqualified: boolean; updatedAt: number };
  const base = { applicationId: d.applicationId, stage: app.stage, disqualified: app.disqualified, detail: "" };
  if (app.stage === d.stage && app.disqualified === d.disqualified) rows.push({ ...base, outcome: "in_sync" });
  else if (app.updatedAt > Date.parse(d.decidedAt)) rows.push({ ...base, outcome: "superseded" });
  else {
    const put = await api.call("PATCH", `/api/v3/applications/${d.applicationId}`, { body: { stage: d.stage, disqualified: d.disqualified }, headers: { "if-match": got.headers.get("etag") ?? "" } });
    if (put.status === 200) rows.push({ ...base, outcome: "repaired", stage: put.body.stage, disqualified: put.body.disqualified });
    else if (put.status === 412) rows.push({ ...base, outcome: "superseded" });
    else rows.push({ ...base, outcome: "refused", detail: String(put.body?.errorMessage ?? put.status) });
  }
}
writeReport(loadConfig().outputDir, rows);
