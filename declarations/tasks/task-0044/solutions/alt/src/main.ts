import { loadConfig } from "./config.ts";
import { CrewCallClient, GaveUp, type CrewRecord } from "./crewcall.ts";
import { canonicalEmail, crewRole, e164, workerNumber } from "./people.ts";
import { writeReport, type ReportRow } from "./report.ts";
import { readSheet, type SheetLine } from "./sheet.ts";

const CONFIRMED = new Set(["confirmed", "checked_in", "completed"]);

/** The details CrewCall takes for a new starter, from the first line that names them. */
function starterInput(l: SheetLine): Record<string, unknown> {
  const mobile = e164(l.mobile);
  return {
    first_name: l.first_name.trim(),
    last_name: l.last_name.trim(),
    email: canonicalEmail(l.email),
    ...(mobile ? { mobile } : {}),
    home_zone: l.home_zone.trim(),
    primary_role: crewRole(l.role),
  };
}

/** Sets up each starter CrewCall has no account for with its own call, under a key of its own (a lost answer is retried under it). */
async function setUpStarters(client: CrewCallClient, missing: Map<string, Record<string, unknown>>): Promise<Map<string, string>> {
  const made = new Map<string, string>();
  for (const [email, input] of missing) {
    const res = await client.request("POST", "/partner/v1/workers", { body: input, key: `kestrel-topup-starter-${email}` });
    if (res.status !== 201) throw new Error(`creating ${email} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    made.set(email, String(res.body.id));
  }
  return made;
}

/**
 * Confirms an offer: true once it is confirmed, false when it lapsed before it was confirmed
 * (409 `offer_expired`: it books nobody, and no retry confirms it). A 409 while the board is
 * rebalanced is retried on the same assignment.
 */
async function confirm(client: CrewCallClient, assignment: string): Promise<boolean> {
  const res = await client.request("POST", `/partner/v1/assignments/${assignment}/confirmation`, {
    body: { status: "confirmed" },
    key: `kestrel-topup-confirm-${assignment}`,
    retryStatuses: [409],
    finalCodes: ["offer_expired"],
  });
  if (res.status === 200) return true;
  if (res.status === 409 && res.body?.code === "offer_expired") return false;
  throw new Error(`confirming assignment ${assignment} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
}

/**
 * The offer CrewCall took for later (202, pending): it is stored a moment later, so the
 * assignments are read until an offer of this gig to this worker (newer than a lapsed one) turns
 * up. Offering again would make a second offer.
 */
async function acceptedOffer(client: CrewCallClient, gig: string, worker: string, after?: string): Promise<string> {
  for (let tries = 0; tries < 10; tries++) {
    const mine = [...(await client.all("/partner/v1/assignments")).values()]
      .filter((a) => String(a.gig_id) === gig && String(a.worker_id) === worker && a.status !== "expired" && (!after || Number(a.id) > Number(after)))
      .sort((a, b) => Number(a.id) - Number(b.id));
    if (mine.length) return String(mine[0].id);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new GaveUp(`the offer of gig ${gig} to ${worker} was taken for later and has not turned up`);
}

/**
 * Offers a gig and confirms it; a lost answer is retried under the same key. An offer that lapses
 * before it is confirmed is offered again as a new offer, under a key naming the lapsed one
 * (the first key would only replay the lapsed offer).
 */
async function book(client: CrewCallClient, gig: string, worker: string, lapsed?: string): Promise<string> {
  let after = lapsed;
  for (let tries = 0; tries < 3; tries++) {
    const key = `kestrel-topup-offer-${gig}-${worker}${after ? `-after-${after}` : ""}`;
    const res = await client.request("POST", "/partner/v1/assignments", { body: { gig_id: Number(gig), worker_id: Number(worker) }, key });
    if (res.status !== 201 && res.status !== 202) throw new Error(`offering gig ${gig} to ${worker} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    const id = res.status === 202 ? await acceptedOffer(client, gig, worker, after) : String(res.body.id);
    if (await confirm(client, id)) return id;
    console.error(`topup: the offer of gig ${gig} to ${worker} (${id}) lapsed before it was confirmed; offering again`);
    after = id;
  }
  throw new Error(`every offer of gig ${gig} to ${worker} lapsed before it was confirmed`);
}

/** Sets up the sheet's new starters once, books and confirms every line once, writes the report. */
async function topup(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const sheet = readSheet();

  // The roster, read until a pass finds nothing new: returning crew by number, starters by email whatever its case.
  const roster = await client.all("/partner/v1/workers");
  const known = new Map<string, boolean>();
  for (const l of sheet) {
    const n = workerNumber(l.crewcall_no);
    if (n) known.set(n, roster.has(n));
  }
  const starters = new Map<string, Record<string, unknown>>();
  for (const l of sheet) if (!l.crewcall_no.trim() && !starters.has(canonicalEmail(l.email))) starters.set(canonicalEmail(l.email), starterInput(l));
  const accounts = new Map<string, string>();
  for (const w of [...roster.values()].sort((a, b) => Number(a.id) - Number(b.id))) {
    const email = canonicalEmail(String(w.email ?? ""));
    if (starters.has(email) && !accounts.has(email)) accounts.set(email, String(w.id));
  }
  const missing = new Map([...starters].filter(([email]) => !accounts.has(email)));
  for (const [email, id] of await setUpStarters(client, missing)) accounts.set(email, id);

  // Bookings CrewCall already holds, by gig and worker.
  const held = new Map<string, CrewRecord[]>();
  for (const a of (await client.all("/partner/v1/assignments")).values()) {
    const key = `${a.gig_id}|${a.worker_id}`;
    held.set(key, [...(held.get(key) ?? []), a]);
  }

  const booked = new Map<string, string>();
  const report: ReportRow[] = [];
  for (const l of sheet) {
    const n = workerNumber(l.crewcall_no);
    const worker = l.crewcall_no.trim() ? (n && known.get(n) ? n : null) : (accounts.get(canonicalEmail(l.email)) ?? null);
    const gig = l.gig_id.trim();
    if (!worker) {
      report.push({ line: l.line, gig_id: gig, worker_id: "", assignment_id: "", status: "unknown_worker" });
      continue;
    }
    const key = `${gig}|${worker}`;
    let assignment = booked.get(key);
    if (!assignment) {
      const existing = (held.get(key) ?? []).sort((a, b) => Number(a.id) - Number(b.id));
      const done = existing.find((a) => CONFIRMED.has(String(a.status)));
      const offered = existing.find((a) => a.status === "offered");
      if (done) assignment = String(done.id);
      else if (offered && (await confirm(client, String(offered.id)))) assignment = String(offered.id);
      else {
        // No open offer (one that lapsed books nobody): offer the gig anew, past the newest lapsed offer.
        const lapsed = [offered, ...existing.filter((a) => a.status === "expired")].filter((a) => a !== undefined).map((a) => Number(a.id));
        assignment = await book(client, gig, worker, lapsed.length ? String(Math.max(...lapsed)) : undefined);
      }
      booked.set(key, assignment);
    }
    report.push({ line: l.line, gig_id: gig, worker_id: worker, assignment_id: assignment, status: "booked" });
  }
  writeReport(config.outputDir, report);
  console.error(`topup: ${report.filter((r) => r.status === "booked").length} of ${report.length} lines booked`);
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = { topup };
if (!commands[command]) {
  console.error("usage: node src/main.ts topup");
  process.exit(2);
}
commands[command]().catch((err) => {
  console.error(err instanceof GaveUp ? `topup gave up: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(1);
});
