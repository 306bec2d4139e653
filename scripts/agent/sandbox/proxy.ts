/**
 * @module proxy
 * The harness's allowlisting proxy: the sandbox's only way out. It listens on
 * Unix sockets that the bridge inside the sandbox forwards ports to:
 *
 * - `farm.sock`: the farm, for the vendor surface of the attempt's own world
 *   (its roles, docs included) and nothing else: the control plane (`/v1`)
 *   and every other world are refused;
 * - `model.sock`: the lane's model endpoint (a plain-HTTP one, such as the
 *   scripted model server);
 * - `egress.sock`: an HTTP proxy (`HTTP_PROXY`/`HTTPS_PROXY` inside) that
 *   tunnels only to the hosts allowed (a real provider's API), refusing the rest.
 *
 * Every request is logged, refusals with their reason; farm requests carry a
 * sequence header so the farm's log rows can be matched to the proxy's.
 */
import { chmodSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { connect } from "node:net";
import { join } from "node:path";

/** Header the proxy adds to every request it forwards to the farm. */
export const PROXY_SEQ_HEADER = "x-wirebench-proxy-seq";

export interface ProxyEntry {
  seq: number;
  /** Seconds since the proxy started. */
  t: number;
  /** Wall-clock time of arrival, ms since the epoch (for matching to trajectory events). */
  atMs: number;
  via: "farm" | "model" | "egress";
  method: string;
  /** Path (farm, model) or absolute URL / host:port (egress). */
  target: string;
  /** Upstream status; null when refused or the upstream did not answer. */
  status: number | null;
  refused: boolean;
  reason?: string;
}

export interface ProxyOptions {
  bridgeDir: string;
  /** Origin of the farm, e.g. http://127.0.0.1:8787 or https://farm.example. */
  farmOrigin: string;
  /**
   * Origin the sandbox sees the farm at, when it is not the farm's own (a
   * remote farm, see farm-view.ts): the farm's origin in answers (links,
   * `Location`, documentation) is rewritten to it.
   */
  sandboxOrigin?: string;
  /** Path prefixes of the vendor surface the sandbox may reach (`/w/<world>/<role>`). */
  allowedPrefixes: string[];
  /** Origin of a plain-HTTP model endpoint, if any. */
  modelOrigin: string | null;
  /** `host:port` pairs the egress proxy may tunnel to. */
  egressAllow: string[];
}

const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"];

/** Answers whose text may carry the farm's origin (JSON, HTML, Markdown, XML, YAML, plain text). */
const TEXTUAL = /^(application\/(json|xml|soap\+xml|problem\+json|yaml)|text\/)/i;

export class AllowlistProxy {
  readonly log: ProxyEntry[] = [];
  private readonly servers: Server[] = [];
  private readonly started = performance.now();
  private seq = 0;
  private readonly opts: ProxyOptions;

  constructor(opts: ProxyOptions) {
    this.opts = opts;
  }

  /** Socket file names inside the bridge folder. */
  static readonly SOCKETS = { farm: "farm.sock", model: "model.sock", egress: "egress.sock" } as const;

  async start(): Promise<void> {
    await this.listen(AllowlistProxy.SOCKETS.farm, (req, res) => this.farm(req, res));
    if (this.opts.modelOrigin) await this.listen(AllowlistProxy.SOCKETS.model, (req, res) => this.forward("model", this.opts.modelOrigin!, req.url ?? "/", req, res));
    const egress = await this.listen(AllowlistProxy.SOCKETS.egress, (req, res) => this.refuse("egress", req.method ?? "GET", req.url ?? "", "the sandbox reaches no other host", res));
    egress.on("connect", (req: IncomingMessage, socket) => this.tunnel(req, socket));
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.closeAllConnections?.();
            s.close(() => resolve());
          }),
      ),
    );
    for (const name of Object.values(AllowlistProxy.SOCKETS)) rmSync(join(this.opts.bridgeDir, name), { force: true });
  }

  private async listen(name: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
    const path = join(this.opts.bridgeDir, name);
    rmSync(path, { force: true });
    const server = createServer(handler);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => resolve());
    });
    // The sandbox runs as another account: it must be able to connect.
    chmodSync(path, 0o777);
    this.servers.push(server);
    return server;
  }

  private entry(e: Omit<ProxyEntry, "seq" | "t" | "atMs">): ProxyEntry {
    const row = { seq: ++this.seq, t: Math.round(performance.now() - this.started) / 1000, atMs: Date.now(), ...e };
    this.log.push(row);
    return row;
  }

  private refuse(via: ProxyEntry["via"], method: string, target: string, reason: string, res: ServerResponse): void {
    this.entry({ via, method, target, status: null, refused: true, reason });
    res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ error: `refused by the wirebench sandbox: ${reason}` }));
  }

  private farm(req: IncomingMessage, res: ServerResponse): void {
    // Normalise as the farm will (dot segments, %2e), then decide on what the farm would see.
    const url = new URL(req.url ?? "/", this.opts.farmOrigin);
    const path = url.pathname;
    const allowed = this.opts.allowedPrefixes.some((p) => path === p || path.startsWith(`${p}/`));
    if (!allowed) {
      const reason = path.startsWith("/v1") ? "the control plane is not reachable from the sandbox" : "only this attempt's own world is reachable";
      this.refuse("farm", req.method ?? "GET", `${path}${url.search}`, reason, res);
      return;
    }
    this.forward("farm", this.opts.farmOrigin, `${path}${url.search}`, req, res);
  }

  private forward(via: "farm" | "model", origin: string, path: string, req: IncomingMessage, res: ServerResponse): void {
    const target = new URL(path, origin);
    const row = this.entry({ via, method: req.method ?? "GET", target: path, status: null, refused: false });
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.includes(k)) headers[k] = v;
    headers.host = target.host;
    if (via === "farm") headers[PROXY_SEQ_HEADER] = String(row.seq);
    const rewrite = via === "farm" && req.method !== "HEAD" && this.opts.sandboxOrigin && this.opts.sandboxOrigin !== origin ? { from: new URL(origin).origin, to: this.opts.sandboxOrigin } : null;
    // A rewritten answer changes length: ask for it unencoded, so its text can be read.
    if (rewrite) delete headers["accept-encoding"];
    const request = target.protocol === "https:" ? httpsRequest : httpRequest;
    const upstream = request(target, { method: req.method, headers }, (up) => {
      row.status = up.statusCode ?? null;
      // An answer the farm cuts off (a declared connection-reset fault) reaches the connector cut
      // off too: its connection is dropped, never left waiting or ended as if the body were whole.
      up.on("close", () => {
        if (!up.complete) {
          row.reason = "upstream: the answer was cut off";
          res.destroy();
        }
      });
      up.on("error", () => res.destroy());
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.includes(k)) out[k] = v;
      if (!rewrite) {
        res.writeHead(up.statusCode ?? 502, out);
        up.pipe(res);
        return;
      }
      const swap = (text: string) => text.split(rewrite.from).join(rewrite.to);
      if (typeof out.location === "string") out.location = swap(out.location);
      if (!TEXTUAL.test(String(up.headers["content-type"] ?? ""))) {
        res.writeHead(up.statusCode ?? 502, out);
        up.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.on("data", (c: Buffer) => chunks.push(c));
      up.on("end", () => {
        const body = Buffer.from(swap(Buffer.concat(chunks).toString("utf8")), "utf8");
        delete out["content-length"];
        res.writeHead(up.statusCode ?? 502, { ...out, "content-length": String(body.length) });
        res.end(body);
      });
    });
    upstream.on("error", (err) => {
      row.reason ??= `upstream: ${err.message}`;
      // After the head went out, a 502 body cannot follow: the connection is dropped instead.
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ error: "upstream unreachable" }));
    });
    req.pipe(upstream);
  }

  private tunnel(req: IncomingMessage, socket: import("node:stream").Duplex): void {
    const target = req.url ?? "";
    if (!this.opts.egressAllow.includes(target)) {
      this.entry({ via: "egress", method: "CONNECT", target, status: null, refused: true, reason: "the sandbox reaches no other host" });
      socket.end("HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nrefused by the wirebench sandbox\n");
      return;
    }
    const row = this.entry({ via: "egress", method: "CONNECT", target, status: 200, refused: false });
    const [host, port] = target.split(":");
    const upstream = connect(Number(port), host, () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on("error", (err) => {
      row.status = null;
      row.reason = `upstream: ${err.message}`;
      socket.destroy();
    });
    socket.on("error", () => upstream.destroy());
  }
}
