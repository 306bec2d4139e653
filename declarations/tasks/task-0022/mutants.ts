// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches quote the connector's template literals word for word
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "maintenance-pushed-through",
      mistake: "treats HireWire's maintenance 503 like any other server error and retries it, instead of stopping the run with exit 75",
      patches: [{ file: "src/hirewire.ts", find: "      if (res.status === 503) throw new Maintenance(`${method} ${path}`);\n", replace: "" }],
    },
    {
      id: "refused-stage-skipped",
      mistake: "when HireWire refuses a stage move, skips that stage and moves the candidate on through the rest of the list",
      patches: [
        {
          file: "src/push.ts",
          find: "      pr.refused = { at: stage, error: explain(a.body) };\n      save();\n      return;",
          replace: "      console.error(`skipping ${stage} for ${p.ref}: ${explain(a.body)}`);\n      continue;",
        },
      ],
    },
    {
      id: "empty-surname-filled",
      mistake: "changes the agency's data to get a refused create through: an empty family_name is sent as the given name",
      patches: [{ file: "src/push.ts", find: "surname: p.family_name, email", replace: "surname: p.family_name || p.given_name, email" }],
    },
    {
      id: "create-key-per-run",
      mistake: "the create's Idempotency-Key is a fresh UUID per run, so the create that committed behind a maintenance 503 is made again by the next run",
      patches: [{ file: "src/push.ts", find: "const createKey = (ref: string) => `kc-create:${ref}`;", replace: "const createKey = (_ref: string) => crypto.randomUUID();" }],
    },
    {
      id: "key-per-attempt",
      mistake: "mints a new Idempotency-Key for every attempt of a write, so the retry of a stage move that committed behind a 500 moves the candidate twice",
      patches: [
        {
          file: "src/hirewire.ts",
          find: "        res = await fetch(url, {",
          replace: '        if (opts.key) headers["Idempotency-Key"] = crypto.randomUUID();\n        res = await fetch(url, {',
        },
      ],
    },
    {
      id: "result-stage-as-sent",
      mistake: "push_result.json reports each candidate at the last stage of its list (what was sent), not the stage HireWire holds after a refusal",
      patches: [{ file: "src/push.ts", find: "      candidate_id: id,\n      stage,\n", replace: "      candidate_id: id,\n      stage: id === null ? null : (p.stages.at(-1) ?? null),\n" }],
    },
    {
      id: "poll-watermark-host-clock",
      mistake: "the poll's next watermark is the host's clock at the end of the run, not the newest updated_at HireWire served",
      patches: [{ file: "src/poll.ts", find: "const since = Math.max(state.since, ...[...changed.values()].map((c) => c.updated_at));", replace: "const since = Math.floor(Date.now() / 1000);" }],
    },
    {
      id: "handover-watermark-in-ms",
      mistake: "believes the changelog and sends the analytics job's millisecond watermark as `since`, though HireWire's timestamps are epoch seconds",
      patches: [{ file: "src/poll.ts", find: "const HANDOVER_SINCE_S = 1_748_736_000;", replace: "const HANDOVER_SINCE_S = 1_748_736_000_000;" }],
    },
  ],
});
