import { send } from "./http.ts";

/** A Sourcewell talent profile, the fields the import needs. */
export interface Profile {
  id: string;
  fn: string;
  ln: string;
  em: string;
  ph: string | null;
}

/** Every live talent profile: 100 a page, following `_links.next.href`. */
export async function talentProfiles(baseUrl: string, apiKey: string): Promise<Profile[]> {
  const out: Profile[] = [];
  let next: string | undefined = "/v3/talent?lim=100";
  while (next) {
    const url = /^https?:/.test(next) ? next : `${baseUrl}${next.startsWith("/") ? "" : "/"}${next}`;
    const { status, body } = await send(url, { headers: { "X-SW-Key": apiKey, Accept: "application/json" } });
    if (status !== 200) throw new Error(`Sourcewell ${url} answered ${status}: ${JSON.stringify(body).slice(0, 200)}`);
    const page = body as { d: Profile[]; _links?: { next?: { href?: string } } };
    out.push(...page.d);
    next = page.d.length ? page._links?.next?.href : undefined;
  }
  return out;
}
