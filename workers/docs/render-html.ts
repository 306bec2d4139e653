import { marked } from "marked";
import type { DocPage } from "./pages.ts";

const STYLE = `
body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;display:flex;min-height:100vh}
nav{width:240px;flex:none;background:#f4f6fa;border-right:1px solid #dde2ea;padding:20px 0}
nav .brand{font-weight:600;padding:0 20px 12px;display:block;color:#1d2330;text-decoration:none}
nav a{display:block;padding:5px 20px;color:#3b4a63;text-decoration:none}
nav a[aria-current=page]{background:#e3e9f4;color:#10305e;font-weight:600}
main{flex:1;max-width:920px;padding:24px 40px 60px}
pre{background:#0f1724;color:#e6edf7;padding:14px;border-radius:6px;overflow:auto}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}
:not(pre)>code{background:#eef1f6;padding:1px 4px;border-radius:3px}
table{border-collapse:collapse;margin:12px 0}th,td{border:1px solid #dde2ea;padding:6px 10px;text-align:left;vertical-align:top}
footer{margin-top:40px;color:#7a869a;font-size:12px}`;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** File name of a page's HTML rendering. */
export function htmlFile(slug: string): string {
  return `${slug}.html`;
}

/**
 * Renders each Markdown page as a standalone HTML page with the site's
 * navigation. Links between pages point at the HTML files; nothing is loaded
 * from the network and no script runs.
 */
export function renderHtmlSite(vendorName: string, canary: string, pages: DocPage[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const page of pages) {
    const nav = pages.map((p) => `<a href="${htmlFile(p.slug)}"${p.slug === page.slug ? ' aria-current="page"' : ""}>${escapeHtml(p.title)}</a>`).join("");
    const body = (marked.parse(page.markdown, { async: false }) as string).replace(/href="([a-z0-9-]+)\.md(#[^"]*)?"/g, (_m, slug: string, hash = "") => `href="${htmlFile(slug)}${hash}"`);
    out.set(
      htmlFile(page.slug),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="wirebench-canary" content="${escapeHtml(canary)}"><title>${escapeHtml(page.title)} · ${escapeHtml(vendorName)} API</title><style>${STYLE}</style></head><body><nav aria-label="Documentation"><a class="brand" href="index.html">${escapeHtml(vendorName)} API</a>${nav}</nav><main>${body}</main></body></html>`,
    );
  }
  return out;
}
