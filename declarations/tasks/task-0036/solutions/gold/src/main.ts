// Fernhill hire_packets: one Onboardly packet per new starter, with the starter on it as signer.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inputProblem } from "./checks.ts";
import { loadConfig } from "./config.ts";
import { Journal } from "./journal.ts";
import { type Answer, Onboardly } from "./onboardly.ts";
import { toE164 } from "./phone.ts";
import { loadStarters, type Starter } from "./starters.ts";

interface Row {
  ref: string;
  status: "sent" | "pending" | "refused";
  packet_id: string | null;
  signer_id: string | null;
  error: string | null;
}

const command = process.argv[2];
if (command !== "push") {
  console.error("usage: node src/main.ts push");
  process.exit(2);
}

const config = loadConfig();
const api = new Onboardly(config);
const journal = new Journal();

const reason = (a: Answer) => String(a.body?.message ?? `HTTP ${a.status}`);
const refused = (ref: string, error: string): Row => ({ ref, status: "refused", packet_id: null, signer_id: null, error });

/** Whether a template can build packets: null when it can, else why not. */
async function templateProblem(id: string): Promise<string | null> {
  const got = await api.get(`/api/v1/templates/${encodeURIComponent(id)}`);
  if (got.status === 404) return `template ${id} does not exist`;
  if (got.status !== 200) throw new Error(`reading template ${id}: ${reason(got)}`);
  return got.body.is_active === true ? null : `template ${id} is retired (not active in Onboardly)`;
}

/** The packet the journal remembers for a starter, if Onboardly still has it. */
async function knownPacket(id: string | null): Promise<string | null> {
  if (!id) return null;
  const got = await api.get(`/api/v1/packets/${encodeURIComponent(id)}`);
  if (got.status === 404) return null;
  if (got.status !== 200) throw new Error(`reading packet ${id}: ${reason(got)}`);
  return id;
}

/** The starter's signer on a packet, if Onboardly has one. */
async function signerOn(packetId: string, s: Starter): Promise<string | null> {
  for (let offset = 0; ; ) {
    const page = await api.get(`/api/v1/packets/${encodeURIComponent(packetId)}/signers?limit=100&offset=${offset}`);
    if (page.status !== 200) throw new Error(`reading the signers of packet ${packetId}: ${reason(page)}`);
    const mine = (page.body.data as { id: string; email: string; role: string }[]).find((g) => g.role === "new_hire" && g.email.toLowerCase() === s.email.toLowerCase());
    if (mine) return mine.id;
    if (page.body.next_offset == null) return null;
    offset = page.body.next_offset;
  }
}

async function settle(s: Starter): Promise<Row> {
  // Decide before the first write: a starter Onboardly cannot take gets no packet at all.
  const problem = inputProblem(s) ?? (await templateProblem(s.template_id));
  if (problem) return refused(s.ref, problem);

  let packetId = await knownPacket(journal.get(s.ref).packet_id);
  if (!packetId) {
    const made = await api.post("/api/v1/packets", { template_id: s.template_id, job_title: s.job_title, department: s.department }, `fernhill-hire-packets:${s.ref}:packet`);
    if (made.status === 422) return refused(s.ref, reason(made));
    if (made.status !== 201 && made.status !== 200) throw new Error(`${s.ref}: creating the packet: ${reason(made)}`);
    packetId = String(made.body.id);
    journal.set(s.ref, { packet_id: packetId, signer_id: null });
  }

  let signerId = await signerOn(packetId, s);
  if (!signerId) {
    const signer = {
      first_name: s.first_name,
      last_name: s.last_name,
      email: s.email,
      ...(s.phone ? { phone: toE164(s.phone) } : {}),
      role: "new_hire",
      signing_order: 1,
      auth_method: s.auth_method,
    };
    const added = await api.post(`/api/v1/packets/${encodeURIComponent(packetId)}/signers`, signer, `fernhill-hire-packets:${s.ref}:signer:${packetId}`);
    if (added.status === 201 || added.status === 200) signerId = String(added.body.id);
    else {
      // The packet stays stored without its starter: the next run adds them.
      console.error(`${s.ref}: packet ${packetId} kept, signer not added yet: ${reason(added)}`);
      return { ref: s.ref, status: "pending", packet_id: packetId, signer_id: null, error: null };
    }
  }
  journal.set(s.ref, { packet_id: packetId, signer_id: signerId });
  return { ref: s.ref, status: "sent", packet_id: packetId, signer_id: signerId, error: null };
}

const rows: Row[] = [];
// HR's corrections come as the same ref again further down the file: the last row for a ref counts.
const starters = new Map<string, Starter>();
for (const s of loadStarters()) starters.set(s.ref, s);
for (const s of starters.values()) rows.push(await settle(s));
rows.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
mkdirSync(config.outputDir, { recursive: true });
writeFileSync(join(config.outputDir, "push_result.json"), `${JSON.stringify(rows, null, 2)}\n`);
console.log(`${rows.filter((r) => r.status === "sent").length} sent, ${rows.filter((r) => r.status === "pending").length} pending, ${rows.filter((r) => r.status === "refused").length} refused`);
