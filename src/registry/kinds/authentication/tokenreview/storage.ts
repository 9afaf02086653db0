/**
 * TokenReview: does this bearer token authenticate, and as whom? The token
 * goes through the server's token authenticators exactly as an
 * `Authorization: Bearer` header would (so only its first word counts), for
 * the audiences the review asks about. The answer echoes the spec — token
 * included, as the real server does — with the result in `status`; a token
 * that does not authenticate is a 201 with `authenticated` unset and the
 * reason in `status.error`, never an error response.
 */

import type { JsonObject, KubeObject } from '../../../../api/meta';
import type { TokenAuthentication, TokenAuthenticator } from '../../../../auth/authn/types';
import { withAuthenticatedGroup } from '../../../../auth/authn/anonymous';
import { badRequest, internalError } from '../../../../machinery/errors';
import type { Creater, RestStorage, WriteOptions } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { echoedMetadata, putIfSet, record, reviewObject, str, strings } from '../../authorization/review';
import { userInfoJson } from '../user-info';

/** The bearer authenticator's answer for a token that no authenticator accepted. */
export const invalidBearerToken = 'invalid bearer token';

/**
 * The error text of a failed review. The real server's authenticator chain
 * reports the bearer default next to each authenticator's own failure, as
 * one aggregate (`[invalid bearer token, <reason>]`, duplicates collapsed).
 */
function failureText(reasons: readonly string[]): string {
  const unique = [...new Set([invalidBearerToken, ...reasons])];
  return unique.length === 1 ? invalidBearerToken : `[${unique.join(', ')}]`;
}

/** The word an `Authorization: Bearer <token>` header would carry ('' when it carries none). */
function bearerWord(token: string): string {
  const header = `Bearer ${token}`.trim();
  return header.split(' ')[1] ?? '';
}

export class TokenReviewStorage implements Creater, RestStorage {
  constructor(
    private readonly rt: ResourceType,
    private readonly authenticator: TokenAuthenticator,
  ) {}

  async create(scope: RequestScope, object: KubeObject, _options: WriteOptions): Promise<KubeObject> {
    const spec = record(object, 'spec');
    const token = str(spec, 'token');
    const audiences = strings(spec, 'audiences');
    if (scope.namespace !== '') throw badRequest(`namespace is not allowed on this type: ${scope.namespace}`);
    if (token === '') throw badRequest('token is required for TokenReview in authentication');

    const status = await this.review(bearerWord(token), audiences);
    const echoed: JsonObject = {};
    putIfSet(echoed, 'token', token);
    putIfSet(echoed, 'audiences', audiences);
    return reviewObject(this.rt, echoedMetadata(object.metadata), { spec: echoed, status });
  }

  private async review(token: string, audiences: string[]): Promise<JsonObject> {
    // "Bearer  x" carries no token: the real chain has no opinion and reports nothing.
    if (token === '') return { user: {} };

    let result: TokenAuthentication | undefined;
    const reasons: string[] = [];
    try {
      result = await this.authenticator.authenticateToken(
        token,
        audiences.length > 0 ? audiences : undefined,
      );
    } catch (e) {
      reasons.push(e instanceof Error ? e.message : String(e));
    }
    if (result === undefined) return { user: {}, error: failureText(reasons) };

    if (audiences.length > 0) {
      // An audience-agnostic authenticator (no audiences in its answer) vouches only for the API server,
      // which the review did not ask about: like the real audience-agnostic wrapper, it has no opinion.
      if (result.audiences.length === 0) return { user: {}, error: failureText([]) };
      // An audience-aware one answering for none of the requested audiences is a server fault, as on the real server.
      if (!result.audiences.some((a) => audiences.includes(a)))
        throw internalError(new Error('error validating audiences'));
    }

    // The real review runs the request authenticator, whose group adder gives `system:authenticated` too.
    const status: JsonObject = {
      authenticated: true,
      user: userInfoJson(withAuthenticatedGroup(result.user)),
    };
    putIfSet(status, 'audiences', [...result.audiences]);
    return status;
  }
}
