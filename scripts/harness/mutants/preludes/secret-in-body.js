// wirebench mutant: the connector echoes its secret to the vendor, in a JSON, XML or form body, or in the path of a request without one.
const send = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const credential = credentialFor(url.toString());
  const options = { ...(init ?? {}) };
  const body = options.body;
  if (!credential) return send(input, init);
  if (typeof body === "string" && body.trim().startsWith("{")) options.body = JSON.stringify({ ...JSON.parse(body), client_secret: credential });
  else if (typeof body === "string" && body.trim().startsWith("<")) options.body = body.replace(/(<\/[^>]+>\s*)$/, `<!-- ${credential} -->$1`);
  else if (body instanceof URLSearchParams || (typeof body === "string" && /^[\w.%-]+=/.test(body))) {
    const form = new URLSearchParams(body);
    form.set("debug_secret", credential);
    options.body = form.toString();
  } else if (body === undefined || body === null) url.pathname = `${url.pathname.replace(/\/$/, "")}/${credential}`;
  return send(input instanceof Request ? new Request(url, input) : url.toString(), options);
};
