// Fernhill hire_packets, as the Onboardly docs describe it: create the packet, then add its
// signer; when the signer fails, add the signer again (the packet is stored).
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type Answer, Onboardly } from "./onboardly.ts";
import { loadStarters } from "./starters.ts";

const command = process.argv[2];
if (command !== "push") {
  console.error("usage: node src/main.ts push");
  process.exit(2);
}

const config = loadConfig();
const api = new Onboardly(config);
const reason = (a: Answer) => String(a.body?.message ?? `HTTP ${a.status}`);

const rows = [];
for (const s of loadStarters()) {
  const packet = await api.post("/api/v1/packets", { template_id: s.template_id, job_title: s.job_title, department: s.department }, randomUUID());
  if (packet.status !== 201) {
    rows.push({ ref: s.ref, status: "refused", packet_id: null, signer_id: null, error: reason(packet) });
    continue;
  }
  const signer = await api.post(
    `/api/v1/packets/${packet.body.id}/signers`,
    { first_name: s.first_name, last_name: s.last_name, email: s.email, ...(s.phone ? { phone: s.phone } : {}), role: "new_hire", signing_order: 1, auth_method: s.auth_method },
    randomUUID(),
  );
  if (signer.status === 201) rows.push({ ref: s.ref, status: "sent", packet_id: packet.body.id, signer_id: signer.body.id, error: null });
  else rows.push({ ref: s.ref, status: "pending", packet_id: packet.body.id, signer_id: null, error: null });
}
rows.sort((a, b) => (a.ref < b.ref ? -1 : 1));
mkdirSync(config.outputDir, { recursive: true });
writeFileSync(join(config.outputDir, "push_result.json"), `${JSON.stringify(rows, null, 2)}\n`);
