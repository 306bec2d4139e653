/**
 * vaultd's client. In production vaultd holds Vettly's client credentials and hands the
 * feed a working access token whenever asked, renewing it behind the scenes; the feed
 * never sees a refresh token. On machines without vaultd (development, the change
 * window) this stands in for it with a client_credentials grant of its own.
 */
export interface BrokerConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export async function brokerToken(config: BrokerConfig): Promise<string> {
  const res = await fetch(`${config.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: config.clientId, client_secret: config.clientSecret }),
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`vaultd: Vettly refused the token request: ${res.status} ${body.slice(0, 200)}`);
  return String((JSON.parse(body) as { access_token: string }).access_token);
}
