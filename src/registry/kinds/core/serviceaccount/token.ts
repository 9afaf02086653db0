/**
 * `serviceaccounts/<name>/token` (`authentication/v1` TokenRequest): mints
 * a bound token for the account, as the real TokenREST does. The request's
 * audiences default to the API server's, its lifetime to an hour (at
 * least ten minutes, at most 2^32 s, shortened to
 * `--service-account-max-token-expiration` with a warning); a
 * `boundObjectRef` to a Pod (running as this account) or a Secret of the
 * namespace must exist, and match its uid when one is given, and puts the
 * object in the token's claims so the token dies with it. A pod-bound
 * token asking for exactly the projected volume's 3607 s for the API
 * server's audiences is valid a year and only warns after 3607 s
 * (`--service-account-extend-token-expiration`, on by default). Nothing is
 * stored: the answer is the request with `status.token` and
 * `status.expirationTimestamp`, 201.
 */

import type { KubeObject } from '../../../../api/meta';
import { badRequest, conflict, invalid, StatusError } from '../../../../machinery/errors';
import { fieldError, type FieldError } from '../../../../machinery/field-errors';
import { rfc3339Seconds } from '../../../../machinery/ids';
import { deepClone, isPlainObject } from '../../../../machinery/json';
import { decodeTypeError } from '../../../validation/decode-types';
import type { KindOverride, NamedCreater } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import type { StoredKindContext } from '../../types';
import { admitCreate } from '../../../generic/create-admission';
import { tokenRequestKind } from '../lazy-subresources';

/** The v1 default lifetime. */
export const defaultExpirationSeconds = 3600;
const minExpirationSeconds = 600;
const maxExpirationSeconds = 2 ** 32;
/** The projected volume's lifetime, which marks a kubelet-refreshed token (`WarnOnlyBoundTokenExpirationSeconds`). */
const warnOnlyExpirationSeconds = 3607;
/** How long such a token really lives (`ExpirationExtensionSeconds`): a year. */
const extendedExpirationSeconds = 365 * 24 * 60 * 60;

interface BoundRef {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

interface TokenRequestSpec {
  audiences?: string[] | null;
  expirationSeconds?: number | null;
  boundObjectRef?: BoundRef | null;
}

/** `schema.FromAPIVersionAndKind`: the group of `group/version`, '' for a bare version. */
function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** What reading a bound object by this name fails with before any lookup (the store's key function). */
function nameProblem(name: string): StatusError | undefined {
  if (name === '') return badRequest('Name parameter required.');
  const problems =
    name === '.' || name === '..'
      ? [`may not be '${name}'`]
      : ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
  if (problems.length === 0) return undefined;
  return badRequest(`Name parameter invalid: ${JSON.stringify(name)}: ${problems.join(';')}`);
}

export function tokenRequestStorage(ctx: StoredKindContext): NamedCreater & KindOverride {
  const sub = ctx.rt.subresources.get('token');
  const objectKind = tokenRequestKind(ctx);
  const gk = { group: objectKind.group, kind: objectKind.kind };

  /** The bound object by reference, read as the server (no authorization); throws the real errors. */
  async function boundObject(
    scope: RequestScope,
    account: string,
    ref: BoundRef,
  ): Promise<{ kind: 'Pod' | 'Secret'; name: string; uid: string }> {
    const { group: refGroup, version: refVersion } = groupVersionOf(ref.apiVersion ?? '');
    const refKind = ref.kind ?? '';
    const name = ref.name ?? '';
    const kind = refKind === 'Pod' || refKind === 'Secret' ? refKind : undefined;
    if (refGroup !== '' || kind === undefined)
      throw badRequest(`cannot bind token to object of type ${refGroup}/${refVersion}, Kind=${refKind}`);
    const resource = kind === 'Pod' ? 'pods' : 'secrets';
    const problem = nameProblem(name);
    if (problem !== undefined) throw problem;
    const store = ctx.storeFor('', resource);
    if (store === undefined)
      throw badRequest(`cannot bind token to object of type /${refVersion}, Kind=${kind}`);
    const object = await store.get({ ...scope, verb: 'get', name, subresource: '' }, name);
    if (kind === 'Pod') {
      const spec = (object.spec ?? {}) as { serviceAccountName?: string };
      if ((spec.serviceAccountName ?? '') !== account)
        throw badRequest(
          `cannot bind token for serviceaccount ${JSON.stringify(account)} to pod running with different serviceaccount name.`,
        );
    }
    const uid = object.metadata?.uid ?? '';
    if ((ref.uid ?? '') !== '' && ref.uid !== uid)
      throw conflict(
        { group: '', resource: kind },
        name,
        `the UID in the bound object reference (${ref.uid ?? ''}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    return { kind, name, uid };
  }

  return {
    objectKind,

    async createNamed(scope, name, body): Promise<KubeObject> {
      const tokens = ctx.services.serviceAccountTokens;
      if (tokens === undefined)
        throw new StatusError(503, 'ServiceUnavailable', 'the service-account token signer is not available');
      const typeError =
        sub?.definition === undefined
          ? undefined
          : decodeTypeError(ctx.deps.definitions, { ref: sub.definition }, body);
      if (typeError !== undefined)
        throw badRequest(
          `TokenRequest in version ${JSON.stringify(objectKind.version)} cannot be handled as a TokenRequest: ${typeError}`,
        );
      // The v1 defaults, applied while decoding (so admission sees them).
      const decoded = deepClone(body);
      if (!isPlainObject(decoded.spec)) decoded.spec = {};
      const decodedSpec = decoded.spec as TokenRequestSpec;
      if (decodedSpec.expirationSeconds === undefined || decodedSpec.expirationSeconds === null)
        decodedSpec.expirationSeconds = defaultExpirationSeconds;

      const admission = await admitCreate(ctx.deps, ctx.rt, scope, name, decoded);
      const req = deepClone(admission.object);
      const meta = req.metadata ?? (req.metadata = {});
      if ((meta.name ?? '') !== '' && meta.name !== name)
        throw invalid(gk, name, [
          fieldError.invalid('metadata.name', meta.name, 'must match the service account name if specified'),
        ]);
      if ((meta.namespace ?? '') !== '' && meta.namespace !== scope.namespace)
        throw invalid(gk, name, [
          fieldError.invalid(
            'metadata.namespace',
            meta.namespace,
            'must match the service account namespace if specified',
          ),
        ]);

      const account = await ctx.store.get({ ...scope, verb: 'get', subresource: '' }, name);
      const spec = (isPlainObject(req.spec) ? req.spec : (req.spec = {})) as TokenRequestSpec;
      if ((spec.audiences ?? []).length === 0) spec.audiences = [...tokens.apiAudiences()];
      const now = Math.floor(ctx.deps.now().getTime() / 1000);
      req.metadata = {
        ...meta,
        name: account.metadata?.name ?? name,
        namespace: account.metadata?.namespace ?? scope.namespace,
        creationTimestamp: rfc3339Seconds(new Date(now * 1000)),
      };
      delete req.status;

      const requested = spec.expirationSeconds ?? defaultExpirationSeconds;
      const problems: FieldError[] = [];
      if (requested < minExpirationSeconds)
        problems.push(
          fieldError.invalid(
            'spec.expirationSeconds',
            requested,
            'may not specify a duration less than 10 minutes',
          ),
        );
      if (requested > maxExpirationSeconds)
        problems.push(
          fieldError.invalid(
            'spec.expirationSeconds',
            requested,
            'may not specify a duration larger than 2^32 seconds',
          ),
        );
      if (problems.length > 0) throw invalid(gk, '', problems);
      await admission.validate();

      const ref = isPlainObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
      const bound = ref === undefined ? undefined : await boundObject(scope, name, ref);

      const max = tokens.maxExpirationSeconds();
      if (max > 0 && requested > max) {
        scope.warnings.add(`requested expiration of ${requested} seconds shortened to ${max} seconds`);
        spec.expirationSeconds = max;
      }
      const lifetime = spec.expirationSeconds ?? requested;
      const apiAudiences = new Set(tokens.apiAudiences());
      const audiences = spec.audiences ?? [];
      // A kubelet-refreshed projected token: valid far longer, warning after its nominal lifetime.
      const extend =
        tokens.extendExpiration() &&
        bound?.kind === 'Pod' &&
        lifetime === warnOnlyExpirationSeconds &&
        audiences.every((a) => apiAudiences.has(a));

      const token = await tokens.signBound({
        namespace: scope.namespace,
        account: { name: account.metadata?.name ?? name, uid: account.metadata?.uid ?? '' },
        audiences,
        expirationSeconds: extend ? extendedExpirationSeconds : lifetime,
        ...(bound !== undefined ? { boundObject: bound } : {}),
        ...(extend ? { warnAfterSeconds: lifetime } : {}),
        now,
      });
      return {
        ...req,
        status: { token, expirationTimestamp: rfc3339Seconds(new Date((now + lifetime) * 1000)) },
      };
    },
  };
}
