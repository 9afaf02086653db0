/**
 * The authentication filter: who the request is from, by the chain of
 * authenticators (front proxy, client certificate, bearer tokens,
 * anonymous). A 401 carries the chain's account of each authenticator for
 * the sandbox's explanation; warnings (an extra space before a bearer
 * token) join the response's Warning header.
 */

import type { ConnectionInfo } from '../../api/connection';
import {
  UnauthorizedError,
  type AuthenticationChain,
  type AuthenticationResult,
  type Identified,
} from '../../auth/authn/chain';
import type { RequestContext } from '../../http/context';

/** Undefined when the chain answered at once (a cached token, no certificate): the pipeline takes no async turn. */
export function authenticate(
  chain: AuthenticationChain,
  ctx: RequestContext,
  conn: ConnectionInfo | undefined,
): Promise<void> | undefined {
  const known = chain.identifyAtOnce(ctx.request, conn);
  if (known === undefined) return authenticateFully(chain, ctx, conn);
  identify(ctx, known);
  return undefined;
}

async function authenticateFully(
  chain: AuthenticationChain,
  ctx: RequestContext,
  conn: ConnectionInfo | undefined,
): Promise<void> {
  try {
    identify(ctx, await chain.authenticate(ctx.request, conn));
  } catch (e) {
    if (e instanceof UnauthorizedError) ctx.explanation = e.explanation;
    throw e;
  }
}

function identify(ctx: RequestContext, result: Identified | AuthenticationResult): void {
  ctx.user = result.user;
  for (const w of result.warnings) ctx.warnings.push(w);
}
