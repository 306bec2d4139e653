/**
 * The primary-mechanic vocabulary: each task is about exactly one of these,
 * and no two tasks share one. Add the slug here when a task introduces it.
 */
export const MECHANICS: Readonly<Record<string, string>> = Object.freeze({
  hmac_clock_skew: "Sign every request with a timestamp on the vendor's clock, which runs behind yours; watermark on the vendor's data clock.",
  subresource_cursor_sweep: "Read every page of every per-parent subresource behind opaque cursors, including parents whose own timestamps did not move.",
  write_500_after_commit_idempotency: "Retry writes that failed after they committed with the same idempotency key, through rate limits, so nothing is written twice.",
  planted_defect_repair: "Find and repair planted defects in a working-looking connector without breaking what works.",
  cross_vendor_identity_matching: "Match the same people across two vendors' schemas and ids, create the missing ones once, write only to the new vendor.",
  rate_limit_gated_resume: "Crawl a large list through rate-limit windows and server errors: wait as told, retry the failed page in place, persist progress so a rerun resumes instead of restarting.",
  cache_revalidated_join_then_adaptive_batch_write:
    "Apply a repair queue whose decisions join queue rows with the vendor's current state: revalidate single reads a cache would serve stale, book in batches split adaptively below a 413 cap lower than documented, report each row as the vendor holds it, and let a rerun apply nothing twice.",
  time_window_chunked_queries:
    "Read a ledger whose list serves one capped time window per request, a shorter cap than documented: follow the window each answer says it served, bucket by instants through per-branch offsets into periods given in local time, keep voided entries visible, and reproduce the cut on a rerun.",
  local_time_branch_stamps:
    "Watermark a change feed through timestamps each stamped with its branch's own UTC offset: compare and store instants, never strings, skip what an inclusive filter returns again, and let a failed run move nothing forward.",
  idempotency_keys_across_retry_storm:
    "Apply a batch of creates exactly once through lost answers, revoked sessions and a rerun of the whole batch: keys stable across retries and processes, credentials renewed, results told truthfully.",
  rpc_over_200_errors:
    "Write through an RPC endpoint that answers 200 to its failures: read every answer's body, report what was refused and why (a deleted candidate told apart from an unknown one by the tombstones), resolve a lost answer by reading back instead of writing twice, and keep reruns from writing again.",
  multi_status_207_lying_success:
    "Import in bulk through a 207 multi-status that can report an item created that never lands: read every claimed id back, retry the missing ones once, report each row as the vendor holds it, split batches the vendor refuses as too large, and keep reruns from writing twice past the request_id window.",
  webhook_exactly_once_with_poll_reconcile:
    "Keep a mirror exactly once from signed webhooks that arrive duplicated, reordered, forged or stale, and repair by polling what the events never said (a delete that was not delivered).",
  poll_to_event_source_switch:
    "Move a polling mirror onto id-only webhooks at a cut-over with no gap and no double-apply: adopt the old poll's state, close what changed between its watermark and the listener's start, share one state between processes, and find a lost first event with a bounded reconciliation poll.",
  webhook_duplicate_storm_idempotency:
    "Turn id-only webhooks into exactly one change per record version: a storm of redeliveries costs neither a second read nor a second change, the record's own version orders what arrives, and a poll from the last poll's watermark finds what no trustworthy delivery carried.",
  dropped_delete_reconcile:
    "Keep a webhook-fed mirror and a note writeback whole through one bad day of combined faults: deletes whose events never came found by a poll that reads each vanished record (410 Gone) or by a write that the API refuses, notes written once through a lost answer with no idempotency key, a revoked token and a failed page survived in place.",
  phantom_delete_flag_detection:
    "See through a documented delete flag that no record carries: take removals from delete events and confirm the ones the events missed by reading the record (410 Gone), never from a listing's silence.",
  poll_only_entities_unified_freshness:
    "Keep one freshness model across entities a vendor pushes and entities it never announces: webhooks for the pushed ones, an incremental poll (on the filter the API really honours) and a full subresource sweep for the rest, with each record's source and each entity's watermark and changes reported truthfully.",
  ack_body_webhooks_dlq:
    "Follow a vendor's switch to acknowledgement by response body: from the announced date a delivery counts only when the answer echoes its id in the field the API really reads, and events never acknowledged (an outage, an answer without the echo) are drained from the dead-letter queue exactly once, late and out of order, without taking the mirror back to an older state.",
  attachment_sidecar_upload:
    "Deliver files as multipart attachments with a note each: the file part built right (name, bytes, real media type), refusals quarantined with their reason and never resent, and a lost answer or a rerun resolved by comparing the candidate's attachments' SHA-256 instead of uploading twice.",
  chained_write_partial_failure_idempotency:
    "Apply chains of dependent writes (create, then stage moves in order) that fail part-way: a 500 after commit retried with its key, a 422 that ends the chain where it stands, a maintenance stop resumed by the next run without repeating a step; results told per chain, then a changes feed on the vendor's own (seconds) clock.",
  split_brain_dual_versions:
    "Mirror a vendor across two API versions that each lose records: the old one stops silently for one resource, the new one skips records between pages for another; read each resource from the version that returns all of it, prove completeness against the totals, and report which resources still depend on the old version.",
  last_contact_recency_over_unordered_feed:
    "Find each record's last contact as a maximum over a notes feed that comes in no order and moves while it is read: read the whole feed (prove it complete against its count), ignore a runbook's newest-first shortcut and its claim that notes touch the parent, and file one chase note per quiet record through a revoked token and a lost answer, so a rerun files nothing.",
  bidirectional_orphan_detection:
    "Reconcile a hand-kept board against the vendor's book in both directions: resolve hand-typed references by number, tell never-had from deleted (a deleted record stays listed with its flag, whatever the customer's notes say) from not booked, flag duplicates, list what the board lacks, and read the whole book through a failed page, a rate-limit window and a revoked token without restarting.",
  two_file_join_before_upsert:
    "Join a customer's timesheet export (BOM, CRLF, quoted commas, quotes and line breaks) with the vendor's export job (request, poll, download; semicolons, BOM, basis points) before writing one derived fee note per record: exact integer rounding, rows the book lacks reported instead of written, a lost answer and a rerun resolved without a second note.",
  stale_account_snapshot_authority:
    "Harden an extract for a larger tenant: follow every page PlaceMint really serves (not the page size a handover assumed), survive a failed page, a rate-limit window and a revoked token without restarting, and let the vendor's live account status decide over a customer's stale weekly copy whose timestamp hides what it missed, keeping from the copy only what the vendor lacks.",
  precedence_reconciliation_lag:
    "Merge two vendors' views of one hire by role precedence (the booking side owns a hire once booked, the recruiting side before), exclude links either side never had or deleted (tombstones on one, a flag on the other), and correct the lagging side exactly once through a lost answer on each: a keyed PATCH on one vendor, a read-back before resending an unkeyed RPC note on the other.",
  cross_vendor_id_only_webhook_provisioning:
    "Turn one vendor's id-only webhooks into provisioning on another exactly once per hire: verify, read the record to decide, resume a half-built provisioning at its first missing step through lost answers and redeliveries, and let a reconcile on the filter the API really honours find the hires no delivery announced, never trusting a lagging list to say what exists.",
  parity_probe_targeted_repair:
    "Bring a vendor back in line with a drifted source of decisions: probe parity cheaply from listings, write only the records that differ and are still ours to change (a later change on the vendor side stands), with If-Match on reads revalidated past a cache, and let a rerun write nothing.",
  mart_rollup_api_cutover:
    "Rebuild a report a vendor-side mart used to deliver from the vendor's own export jobs: run each job to its RFC 4180 file, join it with the small lists, refresh nightly from changed-rows exports, and take deletions, which no export carries, from the deletions feed; where the mart's old notes and the ticket disagree, the ticket is right.",
  non_atomic_paired_writeback:
    "Settle pairs of writes the vendor does not make atomic (a packet, then its signer): decide against the vendor before the first write whether the pair can finish, finish a half-done pair instead of redoing its first half, and keep lost answers, refused second calls and ended sessions from leaving anything empty or doubled.",
  cursor_expiry_restart:
    "Keep a mirror through page tokens that die after a few requests and never outlive a run: follow each the moment it arrives, restart a list whose token died instead of failing, and when a catch-up is stopped (a maintenance window) let the next run re-anchor on the watermark of the last sync that finished, never on a saved token or a half-read list.",
  auth_mechanism_sunset_state_preservation:
    "Move a sync off a legacy credential the vendor retires mid-run onto OAuth client credentials without a re-sync: adopt the old job's files and last finished watermark, mark the deletions the old API never reported, and read each resource where the API returns all of it (the recommended version drops a record at every page boundary).",
  absolute_refresh_expiry_doc_lie:
    "Make several hundred calls through an XML gateway that answers its failures, an expired or revoked token among them, inside a 200: rotate single-use refresh tokens, and when the chain ends at its absolute expiry (the docs say it slides) start a new one with a fresh grant; unknown ids reported, never fabricated.",
  echo_suppressed_two_way_sync:
    "Copy notes both ways between two vendors along a customer's links without bouncing the sync's own copies back (a copy read on the far side is not a note a person wrote), through a lost answer on a keyed write and a revoked token, reading every page the vendor really serves rather than the page size its docs promise; a second run writes nothing.",
  post_cutover_write_routing_exclusivity:
    "Replatform from one vendor to another: take the baseline from the old vendor, back-fill the new one exactly once through a lost answer and a throttled burst (a key derived from the old id, reused by every retry and every later run), route every write to the new vendor only, and tell what the old vendor deleted since the copy from its live list, not from a flag its docs promise.",
  token_layer_rewrite_zero_downtime:
    "Move a change feed off an XML gateway and a token broker onto REST with tokens of its own, with no change lost or repeated: adopt the old job's position, skip what an inclusive filter returns again, and keep going when every token is revoked and the refresh chain ends at its absolute expiry (the docs say it slides).",
  fault_composition_summit:
    "Back-fill three offset-paged lists through compounding faults and a tenant that moves under the crawl: retry a failed page in place and wait out rate limits, sort the list that needs it, see records turn up twice as the sign that others moved ahead of the offset and read the head again, give up on a stuck page with progress kept, and resume half a day later from a position corrected for the deletions since, catching up what changed, appeared or was deleted in between.",
  nonmonotonic_id_watermark_reset:
    "Repair a roster sync that tells new records by a high-water mark of their ids after the vendor renumbers its tenant below the old numbers: tell new from known by the copy itself, read a deletions feed as long as the renumbering makes it (pages cut to the vendor's maximum), and let an inclusive change filter report nothing twice.",
  booby_trapped_starter:
    "Repair a webhook relay whose replay dedupe (a global high-water mark on event numbers) silently drops every reordered event, without the obvious fix's regression: a set of seen ids lets a cancellation delivered before its record's creation be undone, so the record's own version and the finality of a cancellation decide, never arrival or event number; redeliveries journalled once across restarts, and a back-fill that asks for the fields the list leaves out.",
  midnight_split_timesheet_bridge:
    "Build a payroll timesheet from a SOAP time-clock service whose wall-clock times are the venue's own (a changelog says UTC): split each shift at the venue's midnight by real minutes, keep to a pay week counted in each venue's calendar, read through an ended session (CSRF on every SOAP call, a new sign-in when the session is revoked), and write one note per long day through a lost answer and a rerun.",
  dst_fallback_double_count:
    "Repair a night-staffing ledger built from venue-local wall-clock times that counts the fall-back night's repeated hour twice: walk the night by real hours (the repeated clock hour twice, told apart by its offset), find each venue's own fall-back night (Europe and the US change on different dates), and read a start its clock showed twice as the first of the two, as the customer's rule says.",
  commit_on_event_not_202:
    "Apply queued (202 Accepted) reschedules and report a move committed only on the webhook event that carries its request id: a queue that moves only with the account's own traffic, a lost answer on an accepted move retried under the same key, a rerun that settles what is pending without moving anything twice, and local starts turned into instants through each interview's own time zone on the new date's rules.",
  unified_rpc_gateway_reads_and_writes:
    "Read and write through one SOAP 1.1 gateway whose failures are SOAP Faults: page under a cap lower than documented, read nils and typed values out of the envelope, turn branch-offset stamps into UTC, take deletions from the deletions feed (an update of a deleted record fails like one of an unknown record), and make each approved change once through a server fault after commit and a rerun.",
  intra_file_dedupe_canonicalize:
    "Collapse a hand-typed sign-up file onto a second vendor's canonical identities before creating anyone: ids copied in other spellings (case, separators, leading zeros dropped), rows naming a person by email or phone instead, a person listed twice with the latest row deciding, rows naming deleted or never-issued profiles left out; create each person once with the canonical record's identity through a lost answer after commit, and let a rerun create nobody.",
  truncated_array_flag_handling:
    "Build an index over parents whose embedded child lists are cut short (the docs say complete): read a parent's own child list exactly when its flag says the embedded one is cut, count each child once although the vendor lists some twice, leave out children whose record was deleted though the parent still lists them, read whole-second stamps as seconds (the docs say milliseconds), and retry an answer cut off mid-body.",
  tombstone_semantics_migration:
    "Move an archive of deleted records from a nightly full-roster diff onto the vendor's deletions feed without a re-read: adopt the old job's roster as the last-known copies (retyped: it kept numbers as text and nulls as empty strings) and take the watermark from the vendor's clock, not the old job box's; keep the copies current incrementally, archive each tombstone once with the vendor's time of deletion, and correct the rows the old job stamped with the time it noticed.",
  drift_5xx_dup_writeback_compose:
    "Book a hand-typed crew sheet onto gigs exactly once while the roster shifts under an offset crawl and writes fail after they commit: resolve worker numbers without trusting one pass of a drifting list, set each starter up once (emails equal whatever their case), confirm every worker a 207 reports created actually exists, retry lost offers and refused confirmations without a second booking, and let a rerun write nothing.",
  compounding_faults_summit:
    "Keep a board live from webhooks, polling, a CSV export job and writes under compounding faults: build it from a consistent snapshot (or a crawl that notices the list moving), survive revoked tokens, quota windows and failing pages, take in deliveries that come twice, forged, stale or never, keep the newest version, catch up by polling what the listener never heard, and write a close-out exactly once per placement that ended between syncs, measured against the last sync, through a lost answer.",
  quoted_delimiter_csv_corruption:
    "Repair an export reader that splits lines and then semicolons: read the file the RFC 4180 way (a quoted field holds the delimiter, doubled quotes and a line break), stop skipping the records it could not split, and write the reasons back out quoted so they survive as typed.",
  composite_availability_windows:
    "Build a board of bookable time by interval arithmetic over three calendars of a vendor: merge availability that overlaps or touches, subtract blocks (one with no length runs on) and every booking not released (a held offer counts), keep only workers the roster clears, cut to a morning given in local time through the zone's rules on that date, and read through a failing page; where the customer's app-based notes and the API documentation disagree, the documentation wins.",
  slow_count_divergence_churn_dupes:
    "Repair a nightly census that drifts slowly from the vendor's own count: the roster keyed by a contact detail turns every changed phone number into a second worker (churn duplicates), and a page skipped on a bad answer while the watermark moves on loses its sign-ups for good; count each record once by the vendor's id, retry a failed page in place, and let a run that cannot read everything move nothing forward.",
  subcollection_fanout_under_published_quota:
    "Read every parent's subcollection on a tenant large enough that one request per parent runs out the published quota: a refusal is not an empty list, so wait or read less (the parent's embedded children when it says they are all of them), fail loudly rather than report a short copy, and turn the organisation-zone wall-clock stamps into instants.",
  tz_storage_normalization_audit:
    "Move a mirror that stored venue wall-clock stamps as if they were UTC onto instant storage: read each record's own zone, audit every old row against the moment it names (how far it was off, what is gone), and flag the wall times a fall-back night repeated, asking for each once through a CSRF-guarded write whose first answer is lost.",
});
