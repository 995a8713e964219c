/**
 * `startFakeImds`: the token endpoint of Azure's Instance Metadata Service on loopback, what a
 * managed identity's token is asked of on a VM. Follows Microsoft's published description
 * ("How to use managed identities for Azure resources on an Azure VM to acquire an access
 * token"): `GET /metadata/identity/oauth2/token?api-version=2018-02-01&resource=…`, with a
 * user-assigned identity named by `client_id`, and the header `Metadata: true` (without it:
 * 400). It answers `access_token`, `expires_in`, `expires_on` (seconds, as strings),
 * `not_before`, `resource` and `token_type`; an identity the host does not have: 400
 * `invalid_request` "Identity not found". MSAL reaches it through the documented
 * `AZURE_POD_IDENTITY_AUTHORITY_HOST` variable (its IMDS endpoint's host). The token is
 * JWT-shaped and unsigned: only a local fake would ever accept it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_MANAGED_IDENTITY_CLIENT_ID = '5c1f0a9e-3b7d-4e2a-8f6c-1d0b9a8e7f6d';

export interface ImdsRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  metadata: string | undefined;
}

export interface FakeImds {
  /** The host to put in AZURE_POD_IDENTITY_AUTHORITY_HOST (`http://127.0.0.1:{port}`). */
  url: string;
  requests: ImdsRequest[];
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startFakeImds(
  options: {
    /** The user-assigned identities' client ids the host has; system-assigned always. */
    identities?: string[];
    tenant?: string;
  } = {},
): Promise<FakeImds> {
  const identities = new Set(options.identities ?? [FAKE_MANAGED_IDENTITY_CLIENT_ID]);
  const requests: ImdsRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://imds.local');
    const query = Object.fromEntries(url.searchParams);
    const metadata = req.headers.metadata as string | undefined;
    requests.push({ method: req.method ?? '', path: url.pathname, query, metadata });
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    // MSAL sends the path with a trailing slash; both name the one endpoint.
    if (
      req.method !== 'GET' ||
      url.pathname.replace(/\/$/, '') !== '/metadata/identity/oauth2/token'
    )
      return answer(404, { error: 'not_found' });
    if (metadata !== 'true')
      return answer(400, {
        error: 'invalid_request',
        error_description: 'Required metadata header not specified',
      });
    const resource = query.resource;
    if (query['api-version'] === undefined || resource === undefined)
      return answer(400, { error: 'invalid_request', error_description: 'Required parameter' });
    const clientId = query.client_id;
    if (clientId !== undefined && !identities.has(clientId.toLowerCase()))
      return answer(400, { error: 'invalid_request', error_description: 'Identity not found' });
    const now = Math.floor(Date.now() / 1000);
    const exp = now + 86_400;
    const claims = {
      aud: resource,
      iss: `https://sts.windows.net/${options.tenant ?? 'tenant'}/`,
      appid: clientId ?? 'system-assigned',
      nbf: now,
      exp,
    };
    answer(200, {
      access_token: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.fake-imds`,
      refresh_token: '',
      expires_in: String(exp - now),
      expires_on: String(exp),
      not_before: String(now),
      resource,
      token_type: 'Bearer',
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
