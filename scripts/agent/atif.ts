/**
 * @module atif
 * Export of a trajectory to ATIF v1.4 (Harbor's Agent Trajectory Interchange
 * Format), so Harbor's viewers and training pipelines can read wirebench
 * runs. One step per event; a tool call is an agent step whose observation
 * holds its result, correlated by `tool_call_id` (`e<i>`, the event's anchor).
 */
import type { Trajectory, Usage } from "./trajectory.ts";

export const ATIF_VERSION = "ATIF-v1.4";

export interface AtifStep {
  step_id: number;
  timestamp: string;
  source: "system" | "user" | "agent";
  message: string;
  model_name?: string;
  reasoning_content?: string;
  tool_calls?: { tool_call_id: string; function_name: string; arguments: Record<string, unknown> }[];
  observation?: { results: { source_call_id: string; content: string }[] };
  extra?: Record<string, unknown>;
}

export interface AtifTrajectory {
  schema_version: typeof ATIF_VERSION;
  session_id: string;
  agent: { name: string; version: string; model_name: string };
  steps: AtifStep[];
  final_metrics: { total_prompt_tokens: number; total_completion_tokens: number; total_cached_tokens: number; total_cost_usd?: number; total_steps: number };
  extra: { wirebench_schema: string };
}

export function toAtif(t: Trajectory, opts: { sessionId: string; agentVersion: string; startedAtMs: number; usage: Usage }): AtifTrajectory {
  const at = (seconds: number) => new Date(opts.startedAtMs + seconds * 1000).toISOString();
  const steps: AtifStep[] = t.events.map((e, n) => {
    const base = { step_id: n + 1, timestamp: at(e.t), extra: { wirebench_event: e.i } };
    switch (e.kind) {
      case "system":
        return { ...base, source: "system", message: `model ${e.model}; tools: ${e.tools.join(", ")}` };
      case "user":
        return { ...base, source: "user", message: e.text };
      case "message":
        return { ...base, source: "agent", message: e.text, model_name: t.model };
      case "reasoning":
        return { ...base, source: "agent", message: "", reasoning_content: e.text, model_name: t.model };
      case "error":
        return { ...base, source: "system", message: `error: ${e.text}` };
      case "tool_call": {
        const id = `e${e.i}`;
        const args = e.input && typeof e.input === "object" && !Array.isArray(e.input) ? (e.input as Record<string, unknown>) : { input: e.input };
        return {
          ...base,
          source: "agent",
          message: "",
          model_name: t.model,
          tool_calls: [{ tool_call_id: id, function_name: e.tool, arguments: args }],
          ...(e.result ? { observation: { results: [{ source_call_id: id, content: e.result.output }] } } : {}),
        };
      }
    }
  });
  return {
    schema_version: ATIF_VERSION,
    session_id: opts.sessionId,
    agent: { name: t.lane, version: opts.agentVersion, model_name: t.model },
    steps,
    final_metrics: {
      total_prompt_tokens: opts.usage.input_tokens,
      total_completion_tokens: opts.usage.output_tokens,
      total_cached_tokens: opts.usage.cached_input_tokens,
      ...(opts.usage.cost_usd === null ? {} : { total_cost_usd: opts.usage.cost_usd }),
      total_steps: steps.length,
    },
    extra: { wirebench_schema: t.schema },
  };
}
