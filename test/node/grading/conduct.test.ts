import { describe, expect, it } from "vitest";
import hirewire from "../../../declarations/vendors/hirewire.ts";
import placemint from "../../../declarations/vendors/placemint.ts";
import talentloop from "../../../declarations/vendors/talentloop.ts";
import { credentialsInQuery } from "../../../workers/grading/conduct/credentials-in-query.ts";
import { noFullResync } from "../../../workers/grading/conduct/full-resync.ts";
import { noHotLoop } from "../../../workers/grading/conduct/hot-loop.ts";
import { idempotentRetries } from "../../../workers/grading/conduct/idempotent-retries.ts";
import bullpen from "../../../declarations/vendors/bullpen.ts";
import { conductChecks } from "../../../workers/grading/conduct/index.ts";
import { resumeAfter5xx } from "../../../workers/grading/conduct/resume-after-5xx.ts";
import { retryAfterHonored } from "../../../workers/grading/conduct/retry-after.ts";
import { secretsEchoed } from "../../../workers/grading/conduct/secrets-echoed.ts";
import { tokenReuse } from "../../../workers/grading/conduct/token-reuse.ts";
import { staleWebhookRejected } from "../../../mechanics/faults/webhook-stale.ts";
import { forgedWebhookRejected } from "../../../mechanics/faults/webhook-tamper.ts";
import { ctx, delivery, req, SECRET, talentforge, token } from "./log-fixtures.ts";

describe("conduct checks are recorded only when their evidence exists", () => {
  it("records nothing for a run that made no requests", () => {
    expect(conductChecks(ctx())).toEqual([]);
  });
});

describe("no_credentials_in_query_string (hard gate)", () => {
  it("fails on a secret in a query value, mandatory at -1", () => {
    const c = credentialsInQuery(ctx({ requests: [req({ query: { app_token: SECRET } })] }))!;
    expect(c).toMatchObject({ ok: false, mandatory: true, value: -1, level: "l2" });
  });
  it("passes clean traffic at 0 and ignores the token endpoint", () => {
    expect(credentialsInQuery(ctx({ requests: [req({ query: { start: "0" } })] }))).toMatchObject({ ok: true, value: 0 });
    expect(credentialsInQuery(ctx({ vendor: talentforge, requests: [req({ path: "/oauth/token", query: { client_secret: SECRET } })] }))).toBeNull();
  });
});

describe("no_secrets_echoed_to_vendor (hard gate)", () => {
  it("fails on a secret in a path or a JSON body", () => {
    expect(secretsEchoed(ctx({ requests: [req({ path: `/svc/candidates/${SECRET}` })] }))!.ok).toBe(false);
    expect(secretsEchoed(ctx({ requests: [req({ method: "POST", body: { note_text: `token ${SECRET}` } })] }))!.ok).toBe(false);
  });
  it("passes clean bodies", () => {
    expect(secretsEchoed(ctx({ requests: [req({ method: "POST", body: { note_text: "hello" } })] }))!.ok).toBe(true);
  });
});

describe("webhook gates (hard)", () => {
  it("fail when a forged or stale delivery got a 2xx, pass when refused, absent without evidence", () => {
    expect(forgedWebhookRejected(ctx({ webhooks: [delivery({ tampered: true, responseCode: 200 })] }))!.ok).toBe(false);
    expect(forgedWebhookRejected(ctx({ webhooks: [delivery({ tampered: true, responseCode: 401 })] }))!.ok).toBe(true);
    expect(forgedWebhookRejected(ctx({ webhooks: [delivery({ tampered: true, responseCode: null })] }))).toBeNull();
    expect(staleWebhookRejected(ctx({ webhooks: [delivery({ skewS: 900, responseCode: 204 })] }))!.ok).toBe(false);
    expect(staleWebhookRejected(ctx({ webhooks: [delivery({ skewS: 900, responseCode: 400 })] }))!.ok).toBe(true);
    expect(staleWebhookRejected(ctx({ webhooks: [delivery({ skewS: 10, responseCode: 200 })] }))).toBeNull();
  });
});

describe("retry_after_honored", () => {
  const limited = (retryAt: number) => [req({ ts: 10, status: 429, rateLimited: true, retryAfter: 5 }), req({ ts: retryAt })];
  it("fails a retry 2 s after a 5 s hint and passes one 6 s after", () => {
    expect(retryAfterHonored(ctx({ requests: limited(12) }))!.ok).toBe(false);
    expect(retryAfterHonored(ctx({ requests: limited(16) }))!.ok).toBe(true);
    expect(retryAfterHonored(ctx({ requests: [req({})] }))).toBeNull();
  });
});

describe("no_full_resync_after_incremental", () => {
  it("fails a full list after an incremental one, passes two incremental reads", () => {
    const inc = req({ query: { modified_since: "1546800000000" } });
    expect(noFullResync(ctx({ requests: [inc, req({ query: {} })] }))!.ok).toBe(false);
    expect(noFullResync(ctx({ requests: [inc, req({ query: { modified_since: "1546800000000", start: "100" } })] }))!.ok).toBe(true);
    expect(noFullResync(ctx({ requests: [req({ query: {} })] }))).toBeNull();
  });

  // TalentLoop's lists drop removed records and it has no deletions feed: one pass beside an incremental read is how removals show.
  const jobs = (epoch: number, query: Record<string, string>) => req({ epoch, path: "/v1/jobs", query });
  const since = { modified_since: "2025-02-04T21:13:08Z" };
  it("passes one id sweep per run beside its incremental read where removals show only by absence", () => {
    const requests = [jobs(0, {}), jobs(1, since), jobs(1, {}), jobs(1, { cursor: "c2" }), jobs(2, since), jobs(2, {})];
    expect(noFullResync(ctx({ vendor: talentloop, requests }))).toMatchObject({ ok: true });
  });
  it("still fails a second pass in a run, an unfiltered crawl in a run with no incremental read, and any sweep where a feed shows removals", () => {
    expect(noFullResync(ctx({ vendor: talentloop, requests: [jobs(1, since), jobs(1, {}), jobs(1, {})] }))).toMatchObject({ ok: false });
    expect(noFullResync(ctx({ vendor: talentloop, requests: [jobs(1, since), jobs(2, {})] }))).toMatchObject({ ok: false });
    // staffline lists its deletions in a tombstone feed: there a sweep is a re-crawl.
    const svc = (epoch: number, query: Record<string, string>) => req({ epoch, query });
    expect(noFullResync(ctx({ requests: [svc(1, { modified_since: "1546800000000" }), svc(1, {})] }))).toMatchObject({ ok: false });
  });
});

describe("resume_not_restart_after_5xx", () => {
  it("fails a restart from the first page after a 500 on a later page, passes a retry of that page", () => {
    const before = [req({ query: { start: "0" } }), req({ query: { start: "100" }, status: 500 })];
    expect(resumeAfter5xx(ctx({ requests: [...before, req({ query: { start: "0" } })] }))!.ok).toBe(false);
    expect(resumeAfter5xx(ctx({ requests: [...before, req({ query: { start: "100" } })] }))!.ok).toBe(true);
  });
});

describe("no_hot_loop_on_error", () => {
  it("fails six identical 401s a second apart, passes paced retries", () => {
    const burst = Array.from({ length: 7 }, (_, i) => req({ ts: 100 + i, status: 401, authOutcome: "invalid" }));
    expect(noHotLoop(ctx({ requests: burst }))!.ok).toBe(false);
    const paced = Array.from({ length: 7 }, (_, i) => req({ ts: 200 + i * 3, status: 401, authOutcome: "invalid" }));
    expect(noHotLoop(ctx({ requests: paced }))!.ok).toBe(true);
  });
  it("tells writes of different bodies apart: carrying on with other records after a 500 is not a loop", () => {
    const note = (i: number, status = 200) => req({ method: "POST", path: "/svc/rpc/createNote", ts: 300 + i * 0.1, status, body: { candidate_id: `cand_${i}`, note_text: "x" } });
    expect(noHotLoop(ctx({ requests: [note(0, 500), ...Array.from({ length: 8 }, (_, i) => note(i + 1))] }))!.ok).toBe(true);
    const same = Array.from({ length: 8 }, (_, i) => req({ method: "POST", path: "/svc/rpc/createNote", ts: 300 + i * 0.1, status: 500, body: { candidate_id: "cand_1", note_text: "x" } }));
    expect(noHotLoop(ctx({ requests: same }))!.ok).toBe(false);
  });
});

describe("idempotent_write_retries", () => {
  const write = (key: string | null) => req({ method: "POST", path: "/v1/candidates/1001/stage", body: { stage: "rejected" }, idempotencyKey: key, status: key === "fail" ? 500 : 200 });
  it("fails a repeated write without a key or with a new key, passes a repeat with the first key", () => {
    expect(idempotentRetries(ctx({ vendor: hirewire, requests: [write(null), write(null)] }))!.ok).toBe(false);
    expect(idempotentRetries(ctx({ vendor: hirewire, requests: [write("a"), write("b")] }))!.ok).toBe(false);
    expect(idempotentRetries(ctx({ vendor: hirewire, requests: [write("a"), write("a")] }))!.ok).toBe(true);
    expect(idempotentRetries(ctx({ vendor: hirewire, requests: [write("a")] }))).toBeNull();
  });
  it("does not take a second export request for a retried write: each asks for a fresh snapshot", () => {
    const exportRequest = req({ method: "POST", path: "/v2/exports", body: { resource: "fee_statements" }, idempotencyKey: null, status: 202 });
    expect(idempotentRetries(ctx({ vendor: placemint, requests: [exportRequest, exportRequest] }))).toBeNull();
    const note = req({ method: "POST", path: "/v2/notes", body: { placement_id: "plc_000001", body: "x" }, idempotencyKey: null, status: 201 });
    expect(idempotentRetries(ctx({ vendor: placemint, requests: [note, note] }))!.ok).toBe(false);
  });
  it("passes a failed write settled without a resend (read back), and judges nothing when no write failed or repeated", () => {
    const settled = idempotentRetries(ctx({ vendor: hirewire, requests: [write("fail")] }));
    expect(settled).toMatchObject({ ok: true, detail: "1 failed or lost writes settled without sending them again" });
    expect(idempotentRetries(ctx({ vendor: hirewire, requests: [write("a"), req({ method: "GET", path: "/v1/candidates/1001", status: 500 })] }))).toBeNull();
  });
  it("counts a gateway call as a write only when its operation writes", () => {
    const call = (operation: string, status = 200) =>
      req({
        method: "POST",
        path: "/classic/xmlapi",
        status,
        headers: { "content-type": "application/xml" },
        body: `<Request xmlns="urn:bullpen:classic:2012" operation="${operation}"><candidate_id>C-0000001</candidate_id><job_id>JO-000001</job_id></Request>`,
      });
    expect(idempotentRetries(ctx({ vendor: bullpen, requests: [call("ApplicationSearch", 429), call("ApplicationSearch")] }))).toBeNull();
    expect(idempotentRetries(ctx({ vendor: bullpen, requests: [call("SubmitCandidate", 429), call("SubmitCandidate")] }))!.ok).toBe(false);
  });
});

describe("token_reused_not_reminted", () => {
  it("fails a mint per request and passes one token for a short run", () => {
    const requests = Array.from({ length: 30 }, (_, i) => req({ ts: i, path: "/rest/candidates" }));
    const perRequest = Array.from({ length: 30 }, () => token({}));
    expect(tokenReuse(ctx({ vendor: talentforge, requests, tokens: perRequest }))!.ok).toBe(false);
    expect(tokenReuse(ctx({ vendor: talentforge, requests, tokens: [token({}), token({ kind: "session_token", route: "session_exchange" })] }))!.ok).toBe(true);
  });
  it("allows a new token for each one the vendor answered as expired", () => {
    const requests = Array.from({ length: 30 }, (_, i) => req({ ts: i, path: "/rest/candidates", authOutcome: i % 5 === 4 ? "expired" : "ok" }));
    const renewed = Array.from({ length: 8 }, () => token({}));
    expect(tokenReuse(ctx({ vendor: talentforge, requests, tokens: renewed }))!.ok).toBe(true);
    const plain = requests.map((r) => ({ ...r, authOutcome: "ok" as const }));
    expect(tokenReuse(ctx({ vendor: talentforge, requests: plain, tokens: renewed }))!.ok).toBe(false);
  });
});
