import type { Requirement } from "../../../declarations/schema/auth.ts";
import type { IssuedToken, TokenLedger } from "../../../mechanics/auth/define.ts";
import { authScheme } from "../../../mechanics/auth/index.ts";
import type { HeaderReader } from "../../../mechanics/kit/request-headers.ts";
import { randomToken } from "./credentials.ts";

export type { IssuedToken };

/** Live tokens of one (world, role), in SQLite so they survive eviction. */
export class TokenStore implements TokenLedger {
  private readonly sql: SqlStorage;
  /** Issued token values, mirrored in memory: redaction consults them on every request. */
  private values: string[] | null = null;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  issue(name: string, kind: IssuedToken["kind"], ttlMs: number, nowMs: number, familyExpiresMs: number | null = null): IssuedToken {
    const prefix = kind === "refresh" ? "rt" : kind === "session" ? "ss" : "at";
    const t: IssuedToken = { value: `${prefix}_${randomToken(24)}`, name, kind, expiresMs: nowMs + ttlMs, familyExpiresMs, used: false };
    this.sql.exec("INSERT INTO issued (value, name, kind, expires_ms, family_expires_ms, used) VALUES (?, ?, ?, ?, ?, 0)", t.value, name, kind, t.expiresMs, familyExpiresMs);
    this.values?.push(t.value);
    this.sql.exec("INSERT OR IGNORE INTO issued_history (value) VALUES (?)", t.value);
    return t;
  }

  find(value: string): IssuedToken | null {
    const rows = this.sql.exec("SELECT * FROM issued WHERE value = ?", value).toArray();
    if (!rows.length) return null;
    const r = rows[0];
    return {
      value: r.value as string,
      name: r.name as string,
      kind: r.kind as IssuedToken["kind"],
      expiresMs: r.expires_ms as number,
      familyExpiresMs: (r.family_expires_ms as number | null) ?? null,
      used: r.used === 1,
    };
  }

  markUsed(value: string): void {
    this.sql.exec("UPDATE issued SET used = 1 WHERE value = ?", value);
  }

  extend(value: string, expiresMs: number): void {
    this.sql.exec("UPDATE issued SET expires_ms = ? WHERE value = ?", expiresMs, value);
  }

  clear(): void {
    this.sql.exec("DELETE FROM issued");
    this.values = [];
  }

  /** Revokes every token issued so far (a fault): they stay recognisable as revoked. */
  revokeAll(): void {
    this.sql.exec("INSERT OR IGNORE INTO revoked (value) SELECT value FROM issued");
    this.sql.exec("DELETE FROM issued");
    this.values = [];
  }

  /** Whether the request presents a token that was revoked. */
  presentsRevoked(headers: HeaderReader, present: readonly Requirement[]): boolean {
    for (const p of present) {
      const value = authScheme(p).presentedToken?.(p, headers);
      if (value && this.sql.exec("SELECT 1 FROM revoked WHERE value = ?", value).toArray().length) return true;
    }
    return false;
  }

  /** Every token ever issued in this world, recreates included (leak checks need them). */
  everIssued(): string[] {
    return this.sql
      .exec("SELECT value FROM issued_history")
      .toArray()
      .map((r) => r.value as string);
  }

  /** Every live token value, for redaction. */
  liveValues(): string[] {
    this.values ??= this.sql
      .exec("SELECT value FROM issued")
      .toArray()
      .map((r) => r.value as string);
    return this.values;
  }
}
