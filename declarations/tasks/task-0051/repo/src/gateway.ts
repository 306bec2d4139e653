/** The Classic job's PayrollGateway client (2019): one SOAP call, one page loop. */
import type { Config } from "./config.ts";

const NS = "http://paygrade.example/payroll/2011/";

export type Record = { [field: string]: string };

export async function call(config: Config, operation: string, params: { [name: string]: string | number }): Promise<string> {
  const body = Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join("");
  const res = await fetch(`${config.baseUrl}/services/PayrollGateway.asmx`, {
    method: "POST",
    headers: { "content-type": "text/xml; charset=utf-8", soapaction: `"${NS}${operation}"`, "x-pg-app-token": config.appToken },
    body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><${operation} xmlns="${NS}">${body}</${operation}></soap:Body></soap:Envelope>`,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${operation}: HTTP ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

/** Every record of a list operation, each as its fields' text. */
export async function listAll(config: Config, operation: string, tag: string): Promise<Record[]> {
  const out: Record[] = [];
  for (let start = 0; ; start += 100) {
    const xml = await call(config, operation, { start, count: 100 });
    const page = [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => {
      const rec: Record = {};
      for (const f of m[1].matchAll(/<(\w+)[^>]*>([^<]*)<\/\1>/g))
        rec[f[1]] = f[2]
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&quot;/g, '"')
          .replace(/&apos;/g, "'")
          .replace(/&amp;/g, "&");
      return rec;
    });
    out.push(...page);
    const total = Number(xml.match(/<total_records>(\d+)<\/total_records>/)?.[1] ?? 0);
    if (start + 100 >= total || page.length === 0) return out;
  }
}
