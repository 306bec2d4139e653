/**
 * @module connector-host
 * Where a scenario's connector processes run: plain child processes of the
 * harness (the probes of `validate`), or the sandbox (agent attempts, whose
 * connector is untrusted code). Scenarios cannot tell the difference.
 */
import type { ConnectorRun } from "../../evidence/verdict.ts";
import { runConnector, startListener, type Listener } from "./connector-process.ts";
import { copyWorkspace } from "./workspace.ts";

export type RunConnectorOptions = Parameters<typeof runConnector>[0];
export type StartListenerOptions = Parameters<typeof startListener>[0];

export interface ConnectorHost {
  run(opts: RunConnectorOptions): Promise<ConnectorRun>;
  startListener(opts: StartListenerOptions): Promise<Listener>;
  /** A fresh copy of the connector folder `source` with the task's materials from `starter`, ready for this host to run (removed by the caller). */
  workspace(source: string, starter: string): string;
  close(): Promise<void>;
}

export const HOST_CONNECTORS: ConnectorHost = {
  run: runConnector,
  startListener,
  workspace: (source, starter) => copyWorkspace(source, undefined, starter),
  close: async () => {},
};
