import { readFileSync } from "node:fs";
import type { Ledger, Hire } from "./ledger.ts";
import type { Answer, Onboardly } from "./onboardly.ts";
import type { ApiRecord, TalentForge } from "./talentforge.ts";

/** Go-live: only applications that reached `hired` after it are ours. */
export const GO_LIVE_MS = Date.parse("2024-03-04T08:00:00Z");
const TEMPLATE = "tpl_0012";
const OFFER = "input/offer-letter.pdf";

/** Whether an application, as TalentForge serves it, is a hire of ours. */
export function isHire(app: ApiRecord): boolean {
  return app.is_deleted !== true && app.stage === "hired" && Date.parse(String(app.updated_at)) > GO_LIVE_MS;
}

const reason = (a: Answer) => JSON.stringify(a.body).slice(0, 300);

/**
 * Provisions one hire, each step once: the ledger keeps every id the moment Onboardly
 * answers, and every create carries a key of its own, so a lost answer, a redelivery or a
 * second process resumes at the first step not yet done instead of writing again.
 */
export async function provision(tf: TalentForge, ob: Onboardly, ledger: Ledger, app: ApiRecord): Promise<Hire> {
  const id = app.id;
  const done = ledger.hire(id);
  if (done?.uploaded) return done;
  const cand = await tf.get(`/rest/candidates/${encodeURIComponent(String(app.candidate_id))}`);
  const req = await tf.get(`/rest/requisitions/${encodeURIComponent(String(app.requisition_id))}`);
  if (cand.status !== 200 || req.status !== 200) throw new Error(`${id}: candidate or requisition not readable`);
  const c = cand.body as ApiRecord;
  const r = req.body as ApiRecord;
  const hire: Hire = done ?? { application_id: id, candidate_id: String(app.candidate_id), packet_id: null, signer_id: null, document_id: null, uploaded: false };

  if (!hire.packet_id) {
    const made = await ob.post("/api/v1/packets", { template_id: TEMPLATE, job_title: r.title, department: r.department }, `larkfield:${id}:packet`);
    if (made.status !== 201 && made.status !== 200) throw new Error(`${id}: createPacket ${made.status} ${reason(made)}`);
    hire.packet_id = String(made.body.id);
    ledger.saveHire(hire);
  }
  if (!hire.signer_id) {
    const signer = { first_name: c.given_name, last_name: c.family_name, email: c.email, role: "new_hire", signing_order: 1, auth_method: "email_link" };
    const added = await ob.post(`/api/v1/packets/${hire.packet_id}/signers`, signer, `larkfield:${id}:signer`);
    if (added.status !== 201 && added.status !== 200) throw new Error(`${id}: addSigner ${added.status} ${reason(added)}`);
    hire.signer_id = String(added.body.id);
    ledger.saveHire(hire);
  }
  const doc = await ob.post(`/api/v1/packets/${hire.packet_id}/documents`, { filename: "offer-letter.pdf", content_type: "application/pdf" }, `larkfield:${id}:document`);
  if (doc.status !== 201 && doc.status !== 200) throw new Error(`${id}: createDocument ${doc.status} ${reason(doc)}`);
  hire.document_id = String(doc.body.id);
  ledger.saveHire(hire);
  // A replayed create answers the document as it was created; upload unless Onboardly already has the bytes.
  const now = await ob.get(`/api/v1/packets/${hire.packet_id}/documents?limit=100`);
  const stored = (now.body?.data as { id: string; status: string; upload_url: string | null }[] | undefined)?.find((d) => d.id === hire.document_id);
  const url = stored ? stored.upload_url : doc.body.upload_url;
  if ((stored?.status ?? doc.body.status) !== "uploaded" && url) {
    const put = await ob.upload(String(url), new Uint8Array(readFileSync(OFFER)), "application/pdf");
    if (put.status !== 200 && put.status !== 201) throw new Error(`${id}: upload ${put.status} ${reason(put)}`);
  }
  hire.uploaded = true;
  ledger.saveHire(hire);
  return hire;
}
