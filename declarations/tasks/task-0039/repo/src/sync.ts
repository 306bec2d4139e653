import type { Config } from "./config.ts";
import { Interviewly } from "./interviewly.ts";
import { Store, toRow } from "./store.ts";

/** The back-fill: reads every interview and scorecard and rewrites the copy. */
export async function sync(config: Config): Promise<void> {
  const api = new Interviewly(config);
  const store = new Store(config.outputDir);
  const interviews = await api.listAll("/v1/interviews");
  const scorecards = await api.listAll("/v1/scorecards");
  store.replace("interview", interviews.map(toRow));
  store.replace("scorecard", scorecards.map(toRow));
  store.save();
  store.ensureJournal();
  console.error(`synced ${interviews.length} interviews, ${scorecards.length} scorecards`);
}
