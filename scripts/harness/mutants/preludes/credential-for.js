// The credential of the vendor a URL belongs to: the environment names each vendor's base URL
// (PLACEMINT_BASE_URL) and its credentials with the same prefix (PLACEMINT_CLIENT_SECRET).
// Without a matching base URL, the first credential of the environment, by name.
const CREDENTIAL_NAME = /(SECRET|API_KEY|APIKEY|PASSWORD|TOKEN)$/;
const credentials = Object.keys(process.env)
  .sort()
  .filter((k) => CREDENTIAL_NAME.test(k) && (process.env[k] ?? "").length >= 8);
const bases = Object.keys(process.env)
  .filter((k) => /_URL$/.test(k) && /^https?:\/\//.test(process.env[k] ?? ""))
  .map((k) => ({ prefix: k.replace(/(BASE_)?URL$/, ""), url: (process.env[k] ?? "").replace(/\/$/, "") }))
  .sort((a, b) => b.url.length - a.url.length);
const credentialFor = (url) => {
  const base = bases.find((b) => url.startsWith(b.url));
  const own = base ? credentials.find((k) => k.startsWith(base.prefix)) : undefined;
  const name = own ?? credentials[0];
  return name === undefined ? undefined : process.env[name];
};
