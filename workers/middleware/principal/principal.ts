/**
 * @module principal/principal
 * Who is calling the control plane: the operator (admin token) or a
 * participant (a key the operator minted), with the participant's quotas.
 */
import { sha256Hex } from "../../../mechanics/kit/hmac.ts";

/** A participant's limits. */
export interface ParticipantQuota {
  /** Worlds it may create per UTC day. */
  worldsPerDay: number;
  /** Worlds it may hold live at once. */
  liveWorlds: number;
  /** Vendor requests one of its worlds may take. */
  requestsPerWorld: number;
  /** Lifetime of its worlds, seconds. */
  worldTtlS: number;
  /** Patches it may submit per UTC day. */
  submissionsPerDay: number;
}

export type Principal = { kind: "admin" } | { kind: "participant"; id: string; name: string; quota: ParticipantQuota };

/** Header the farm sets (and strips from callers) when it hands a request to the grader. */
export const PRINCIPAL_HEADER = "x-wirebench-principal";

/** Prefix of participant keys. */
export const PARTICIPANT_KEY_PREFIX = "wbk_";

/** Hex SHA-256 of a key: the archive keeps only this. */
export const keyHash = (key: string): Promise<string> => sha256Hex(key);
