/**
 * The authentication filter: who the request is from, by the chain of
 * authenticators (front proxy, client certificate, bearer tokens,
 * anonymous). A 401 carries the chain's account of each authenticator for
 * the sandbox's explanation; warnings (an extra space before a bearer
 * token) join the response's Warning header.
 */

import type { ConnectionInfo } from '../../api/connection';
import { UnauthorizedError, type AuthenticationChain } from '../../auth/authn/chain';
import type { RequestContext } from '../../http/context';

export async function authenticate(
  chain: AuthenticationChain,
  ctx: RequestContext,
  conn: ConnectionInfo | undefined,
): Promise<void> {
  try {
    const result = await chain.authenticate(ctx.request, conn);
    ctx.user = result.user;
    for (const w of result.warnings) ctx.warnings.push(w);
  } catch (e) {
    if (e instanceof UnauthorizedError) ctx.explanation = e.explanation;
    throw e;
  }
}
