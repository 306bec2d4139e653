// Harbour screening_sync: carries the panel's decisions into RecruitOS.
import { loadConfig } from "./config.ts";
import { loadDecisions } from "./decisions.ts";
import { type ReportRow, writeReport } from "./report.ts";

const command = process.argv[2];
if (command !== "repair") {
  console.error("usage: node src/main.ts repair");
  process.exit(2);
}

const config = loadConfig();
const tokenRes = await fetch(`${config.baseUrl}/oauth2/token`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ grant_type: "client_credentials", client_id: config.clientId, client_secret: config.clientSecret }),
});
if (!tokenRes.ok) throw new Error(`token: ${tokenRes.status}`);
const token = ((await tokenRes.json()) as { access_token: string }).access_token;
const auth = { authorization: `Bearer ${token}` };

// One decision per application: the later row in the file is the newer decision.
const latest = new Map<number, ReturnType<typeof loadDecisions>[number]>();
for (const d of loadDecisions()) latest.set(d.applicationId, d);

const rows: ReportRow[] = [];
for (const d of latest.values()) {
  const got = await fetch(`${config.baseUrl}/api/v3/applications/${d.applicationId}`, { headers: auth });
  if (got.status === 404) {
    rows.push({ applicationId: d.applicationId, outcome: "missing", stage: null, disqualified: null, detail: "" });
    continue;
  }
  if (!got.ok) throw new Error(`application ${d.applicationId}: ${got.status}`);
  const app = (await got.json()) as { stage: string; disqualified: boolean };
  if (app.stage === d.stage && app.disqualified === d.disqualified) {
    rows.push({ applicationId: d.applicationId, outcome: "in_sync", stage: app.stage, disqualified: app.disqualified, detail: "" });
    continue;
  }
  const patch = await fetch(`${config.baseUrl}/api/v3/applications/${d.applicationId}`, {
    method: "PATCH",
    headers: { ...auth, "content-type": "application/json", "if-match": got.headers.get("etag") ?? "*" },
    body: JSON.stringify({ stage: d.stage, disqualified: d.disqualified }),
  });
  if (patch.status === 412) rows.push({ applicationId: d.applicationId, outcome: "superseded", stage: app.stage, disqualified: app.disqualified, detail: "" });
  else if (patch.ok) rows.push({ applicationId: d.applicationId, outcome: "repaired", stage: d.stage, disqualified: d.disqualified, detail: "" });
  else rows.push({ applicationId: d.applicationId, outcome: "refused", stage: app.stage, disqualified: app.disqualified, detail: `HTTP ${patch.status}` });
}
writeReport(config.outputDir, rows);
