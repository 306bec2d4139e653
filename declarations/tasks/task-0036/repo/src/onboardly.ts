import { randomUUID } from "node:crypto";
import type { Config } from "./config.ts";

/** An answer from Onboardly. */
export interface Answer {
  status: number;
  body: any;
}

/** A signed-in Onboardly console session: the cookie and its CSRF token. */
export class Onboardly {
  private cookie = "";
  private csrf = "";

  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  async login(): Promise<void> {
    const res = await fetch(`${this.config.baseUrl}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: this.config.username, password: this.config.password }),
    });
    if (!res.ok) throw new Error(`login failed: ${res.status}`);
    this.cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    this.csrf = ((await res.json()) as { csrf_token: string }).csrf_token;
  }

  async get(path: string): Promise<Answer> {
    const res = await fetch(`${this.config.baseUrl}${path}`, { headers: { cookie: this.cookie } });
    return { status: res.status, body: await res.json().catch(() => null) };
  }

  /** A write; 5xx answers are retried up to three times. */
  async post(path: string, body: unknown): Promise<Answer> {
    let answer: Answer = { status: 0, body: null };
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await fetch(`${this.config.baseUrl}${path}`, {
        method: "POST",
        headers: { cookie: this.cookie, "x-csrf-token": this.csrf, "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify(body),
      });
      answer = { status: res.status, body: await res.json().catch(() => null) };
      if (res.status < 500) return answer;
    }
    return answer;
  }
}
