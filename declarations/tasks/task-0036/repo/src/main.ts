// Fernhill hire_packets: one Onboardly packet per new starter, with the starter on it as signer.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { Onboardly } from "./onboardly.ts";
import { loadStarters } from "./starters.ts";

const command = process.argv[2];
if (command !== "push") {
  console.error("usage: node src/main.ts push");
  process.exit(2);
}

const config = loadConfig();
const api = new Onboardly(config);
await api.login();

// Skip starters whose job title already has a packet, so a rerun does not send packets twice.
const titles = new Set<string>();
for (let offset = 0; ; ) {
  const page = await api.get(`/api/v1/packets?limit=100&offset=${offset}`);
  for (const p of page.body.data) titles.add(p.job_title);
  if (page.body.next_offset == null) break;
  offset = page.body.next_offset;
}

const results = [];
for (const s of loadStarters()) {
  if (titles.has(s.job_title)) {
    results.push({ ref: s.ref, status: "sent", packet_id: null, signer_id: null, error: null });
    continue;
  }
  let row = { ref: s.ref, status: "refused", packet_id: null as string | null, signer_id: null as string | null, error: null as string | null };
  // Onboardly rolls a packet back when its signer fails, so a failed pair is started again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const packet = await api.post("/api/v1/packets", { template_id: s.template_id, job_title: s.job_title, department: s.department });
    if (packet.status !== 201) {
      row = { ...row, error: packet.body?.message ?? `HTTP ${packet.status}` };
      break;
    }
    const signer = await api.post(`/api/v1/packets/${packet.body.id}/signers`, {
      first_name: s.first_name,
      last_name: s.last_name,
      email: s.email,
      phone: s.phone ?? undefined,
      role: "new_hire",
      signing_order: 1,
      auth_method: s.auth_method,
    });
    if (signer.status === 201) {
      row = { ref: s.ref, status: "sent", packet_id: packet.body.id, signer_id: signer.body.id, error: null };
      break;
    }
    row = { ...row, error: signer.body?.message ?? `HTTP ${signer.status}` };
  }
  titles.add(s.job_title);
  results.push(row);
}

mkdirSync(config.outputDir, { recursive: true });
writeFileSync(join(config.outputDir, "push_result.json"), `${JSON.stringify(results, null, 2)}\n`);
