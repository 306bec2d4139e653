// wirebench mutant: the connector's credential rides in the query string of every request it sends.
const send = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const credential = credentialFor(url.toString());
  if (credential) url.searchParams.set("api_key", credential);
  return send(input instanceof Request ? new Request(url, input) : url.toString(), init);
};
