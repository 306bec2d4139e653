// wirebench mutant: the connector's credential rides in the query string of every request it sends.
{
  const credential = Object.keys(process.env)
    .sort()
    .filter((k) => /(SECRET|API_KEY|APIKEY|PASSWORD|TOKEN)$/.test(k))
    .map((k) => process.env[k])
    .find((v) => v && v.length >= 8);
  const send = globalThis.fetch;
  if (credential)
    globalThis.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.searchParams.set("api_key", credential);
      return send(input instanceof Request ? new Request(url, input) : url.toString(), init);
    };
}
