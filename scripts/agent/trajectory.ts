/**
 * @module trajectory
 * The one event schema every lane's run is normalised to (`trajectory.json`).
 * Indices are stable, so `#e42` links into a published trajectory hold.
 */

/** A tool call's outcome. */
export interface ToolResult {
  ok: boolean;
  /** What the tool returned (capped). */
  output: string;
  /** Exit code of a shell command, when the tool ran one. */
  exit_code: number | null;
}

/** Fields every event has. */
interface EventBase {
  /** Position in the trajectory, from 0. */
  i: number;
  /** Seconds since the agent started. */
  t: number;
}

export type TrajectoryEvent =
  | (EventBase & { kind: "system"; model: string; tools: string[] })
  | (EventBase & { kind: "user"; text: string })
  | (EventBase & { kind: "message"; text: string })
  | (EventBase & { kind: "reasoning"; text: string })
  | (EventBase & {
      kind: "tool_call";
      /** The lane's own tool name (`Bash`, `shell`, `write`, ...). */
      tool: string;
      input: unknown;
      result: ToolResult | null;
      /** Seconds since start when the result came back (null: never). */
      t_end: number | null;
    })
  | (EventBase & { kind: "error"; text: string });

/** An event before numbering. */
export type DraftEvent = TrajectoryEvent extends infer E ? (E extends TrajectoryEvent ? Omit<E, "i"> : never) : never;

/** `trajectory.json`. */
export interface Trajectory {
  schema: "wirebench-trajectory/1";
  lane: string;
  model: string;
  events: TrajectoryEvent[];
}

/** Numbers drafted events in order. */
export function numberEvents(drafts: DraftEvent[]): TrajectoryEvent[] {
  return drafts.map((d, i) => ({ ...d, i }) as TrajectoryEvent);
}

/** Token usage and cost of one attempt, summed over turns. */
export interface Usage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  /** Null when the lane cannot know (a subscription plan, a scripted model). */
  cost_usd: number | null;
}

export const NO_USAGE: Usage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, cost_usd: null };

/** One line a CLI printed, with when the harness read it. */
export interface RawLine {
  /** Seconds since the agent started. */
  t: number;
  stream: "stdout" | "stderr";
  text: string;
}
