/**
 * @module lane
 * How one agent CLI (or the built-in loop) is put through an attempt. A lane
 * is a module exporting a {@link Lane}; `lanes/index.ts` is the only list.
 */
import type { DraftEvent, RawLine, Usage } from "../trajectory.ts";

/** What a lane is given to set up one attempt. Paths are as seen inside the sandbox unless named `host*`. */
export interface LaneSetup {
  /** The prompt (one template for every lane). */
  prompt: string;
  /** Model name as the user gave it (`claude-sonnet-4-6`, or the scripted model's name). */
  model: string;
  /** Base URL of the model endpoint as reachable inside the sandbox (scripted: `http://127.0.0.1:PORT`). */
  modelBaseUrl: string;
  /** Provider key the CLI must present (a dummy for the scripted model). */
  apiKey: string;
  /** `/workspace` */
  workspace: string;
  /** The lane's fresh home directory inside the sandbox (`/home/agent`). */
  home: string;
  /** The same home directory on the host, for writing configuration before the start. */
  hostHome: string;
  /** Wall-clock limit in seconds. */
  timeLimitS: number;
  /** The model is the scripted server: a lane may bound its CLI's retries (a real provider deserves them). */
  scripted?: boolean;
}

/** The process the harness starts inside the sandbox. */
export interface LaneCommand {
  argv: string[];
  /** Extra environment (the sandbox adds PATH, HOME, the vendor variables). */
  env: Record<string, string>;
}

/** A provider failure found in the CLI's own channels: the attempt is not graded. */
export interface ProviderFailure {
  kind: "usage_limit" | "provider_error";
  message: string;
  /** Epoch seconds the limit resets, when the CLI said. */
  resetEpoch?: number;
}

export interface Lane {
  id: "claude-code" | "codex" | "opencode" | "direct" | "exec";
  /** Wire protocol the scripted model must speak for this lane. */
  protocol: "anthropic-messages" | "openai-responses" | "openai-chat";
  /** Environment variable holding the provider key for real models. */
  keyEnv: string;
  /**
   * `host:port` pairs the egress proxy may tunnel to, in place of the model
   * endpoint's host (the exec lane's `--allow-host`: its agent brings its own provider).
   */
  egress?: string[];
  /** Host folders the CLI needs read-only inside the sandbox: host path -> sandbox path. */
  mounts(): { host: string; sandbox: string }[];
  /** The CLI's version, or a one-line reason it is not installed. */
  version(): { ok: true; version: string } | { ok: false; reason: string };
  /** Writes the lane's configuration into the fresh home and returns the command. */
  prepare(setup: LaneSetup): LaneCommand;
  /** Turns the CLI's raw output into trajectory events (numbered by the caller). */
  normalize(lines: RawLine[], setup: Pick<LaneSetup, "model" | "prompt">): DraftEvent[];
  /**
   * Whether the raw output is in an event format `normalize` reads; absent:
   * always (a lane's own CLI). An attempt whose output is not has no trajectory
   * (the exec lane's agent may print anything).
   */
  readable?(lines: RawLine[]): boolean;
  /** Token usage summed from the raw output. */
  usage(lines: RawLine[]): Usage;
  /** A usage limit or provider error reported by the CLI itself, if any. */
  providerFailure(lines: RawLine[]): ProviderFailure | null;
}
