/**
 * @module site-files
 * Serves a published site's files from disk for the local farm (bound to the
 * Worker as the `SITE` service): the farm then shows its leaderboard at `/`
 * and every page under it. Paths are confined to the site folder.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize, resolve, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".jsonl": "application/x-ndjson; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".diff": "text/plain; charset=utf-8",
  ".png": "image/png",
};

/** A fetch handler over the files of `dir`. */
export function siteHandler(dir: string): (request: Request) => Promise<Response> {
  const root = resolve(dir);
  return async (request) => {
    const url = new URL(request.url);
    let rel: string;
    try {
      rel = decodeURIComponent(url.pathname.replace(/^\/runs(?=\/|$)/, "")).replace(/^\/+/, "");
    } catch {
      return new Response("not found", { status: 404 }); // a malformed escape names no file
    }
    let file = normalize(join(root, rel || "index.html"));
    if (file !== root && !file.startsWith(root + sep)) return new Response("not found", { status: 404 });
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) return new Response("not found", { status: 404 });
    return new Response(readFileSync(file), { headers: { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "access-control-allow-origin": "*" } });
  };
}
