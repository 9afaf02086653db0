/**
 * The Identity view: "Who am I" and "What can I do". Who am I asks the
 * server with a SelfSubjectReview when discovery lists one (it is alpha in
 * v1.26 and off by default in v1.27); otherwise it says so and shows what
 * the UI knows — the credential it sends and the user that credential should
 * map to — next to whatever the server itself has said (the user named in a
 * 403's explanation). What can I do is the verb × resource matrix of one
 * SelfSubjectRulesReview for a namespace (AccessMatrix). Both follow the
 * identity: switching it, or applying a grant, fetches them again. Two
 * more sections sit beside them (src/ui/certificates): certificate signing
 * and service account tokens, each able to add an identity to the switcher.
 */

import { useMemo, useState } from 'react';
import type { DiscoveredGroupVersion } from '../../client/index';
import { useDiscovery } from '../app/DiscoveryContext';
import type { ViewProps } from '../app/view-props';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { useAsync } from '../hooks/useAsync';
import { effectiveUser } from '../lib/identity';
import { navigate } from '../lib/route';
import { IdentitySectionBody, IdentitySectionNav, sectionOf } from '../certificates/IdentitySections';
import { AccessMatrix, matrixResources } from './AccessMatrix';
import { useActingAs, useIdentityStore, useIdentityVersion } from './IdentityContext';
import { IdentityForm, actingLabel } from './IdentitySwitcher';
import type { RulesReviewStatus } from './rules';

interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** The served version of a group's kind, preferring the stable one (`v1` over `v1beta1` over `v1alpha1`). */
function servedAt(
  groupVersions: readonly DiscoveredGroupVersion[],
  groupPrefix: string,
  resource: string,
): { group: string; version: string } | undefined {
  const rank = (v: string) => (/alpha/.test(v) ? 2 : /beta/.test(v) ? 1 : 0);
  return groupVersions
    .filter((gv) => gv.group.startsWith(groupPrefix) && gv.resources.some((r) => r.name === resource))
    .sort((a, b) => rank(a.version) - rank(b.version))
    .map((gv) => ({ group: gv.group, version: gv.version }))[0];
}

const methodText: Record<string, string> = {
  token: 'a bearer token (Authorization: Bearer …)',
  certificate: 'a client certificate, proved by signing each request with its key (X-Sandbox-Client-*)',
  oidc: 'an OIDC id_token from the sandbox issuer, as a bearer token',
  anonymous: 'no credential at all',
};

export function IdentityView({ params, active }: ViewProps) {
  const client = useClient();
  const store = useIdentityStore();
  const acting = useActingAs();
  const version = useIdentityVersion();
  const { discovery, error: discoveryError } = useDiscovery();
  const namespace = params['ns'] ?? 'default';
  const section = sectionOf(params);
  const [nsDraft, setNsDraft] = useState(namespace);
  const groupVersions = useMemo(() => discovery?.groupVersions ?? [], [discovery]);
  const ssr = servedAt(groupVersions, 'authentication.', 'selfsubjectreviews');
  const rulesReview = servedAt(groupVersions, 'authorization.', 'selfsubjectrulesreviews') ?? {
    group: groupVersions.some((gv) => gv.group === 'authorization.k8s.io')
      ? 'authorization.k8s.io'
      : 'authorization.orch.io',
    version: 'v1',
  };

  const review = useAsync(async () => {
    if (discovery === undefined) return undefined;
    const path = `/apis/${rulesReview.group}/${rulesReview.version}/selfsubjectrulesreviews`;
    const answer = await client.send<{ status?: RulesReviewStatus }>('POST', path, {
      body: {
        apiVersion: `${rulesReview.group}/${rulesReview.version}`,
        kind: 'SelfSubjectRulesReview',
        spec: { namespace },
      },
    });
    return answer.body.status ?? {};
  }, [version, namespace, discovery !== undefined, rulesReview.group]);

  const whoami = useAsync(async () => {
    if (ssr === undefined) return undefined;
    const answer = await client.send<{ status?: { userInfo?: UserInfo } }>(
      'POST',
      `/apis/${ssr.group}/${ssr.version}/selfsubjectreviews`,
      { body: { apiVersion: `${ssr.group}/${ssr.version}`, kind: 'SelfSubjectReview' } },
    );
    return answer.body.status?.userInfo ?? {};
  }, [version, ssr?.group, ssr?.version]);

  const expected = effectiveUser(acting);
  // Read after the reviews: a 403 on them is the server naming the user.
  const seen = review.loading ? undefined : store.serverSeen();
  const resources = useMemo(() => matrixResources(groupVersions), [groupVersions]);
  const method = acting?.method ?? (acting?.token !== undefined ? 'token' : 'anonymous');

  return (
    <main className="identity-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <h2>Identity</h2>
      <IdentitySectionNav current={section} />
      <IdentitySectionBody section={section} />
      <div className="identity-columns" hidden={section !== 'access'}>
        <section className="card identity-whoami" aria-labelledby="whoami-title">
          <h3 id="whoami-title">Who am I</h3>
          <dl className="access-facts">
            <dt>The UI acts as</dt>
            <dd data-testid="acting-as">
              <strong>{actingLabel(acting)}</strong>, sending {methodText[method] ?? method}
              {acting?.impersonate !== undefined && acting.impersonate.user !== '' ? (
                <>
                  , impersonating <code>{acting.impersonate.user}</code>
                  {acting.impersonate.groups.length > 0 ? ` in ${acting.impersonate.groups.join(', ')}` : ''}
                </>
              ) : null}
            </dd>
          </dl>
          {/* Right under the identity, so changing it needs no scrolling whatever the server says below. */}
          <details className="identity-change">
            <summary>Change identity</summary>
            <IdentityForm current={acting} onDone={(next) => store.set(next)} />
          </details>
          <dl className="access-facts">
            {ssr !== undefined ? (
              <>
                <dt>The server says (SelfSubjectReview)</dt>
                <dd data-testid="server-user">
                  {whoami.value !== undefined ? (
                    <UserLine user={whoami.value} />
                  ) : whoami.loading ? (
                    'asking…'
                  ) : (
                    'no answer'
                  )}
                </dd>
              </>
            ) : (
              <>
                <dt>Expected user</dt>
                <dd data-testid="expected-user">
                  {expected !== undefined ? <UserLine user={expected} /> : '…'}
                  <br />
                  <span className="muted">
                    SelfSubjectReview is not served here (alpha in v1.26, off by default in v1.27), so this is
                    what the credential should map to.
                  </span>
                </dd>
                {seen !== undefined ? (
                  <>
                    <dt>The server said</dt>
                    <dd data-testid="server-user">
                      <UserLine user={seen} />
                      <br />
                      <span className="muted">in the explanation of the 403 on {seen.request}</span>
                    </dd>
                  </>
                ) : null}
              </>
            )}
          </dl>
          {whoami.error !== undefined ? (
            <ErrorNotice title="SelfSubjectReview failed" error={whoami.error} reveal={false} />
          ) : null}
        </section>
        <section className="card identity-cando" aria-labelledby="cando-title">
          <h3 id="cando-title">What can I do</h3>
          <form
            className="identity-ns"
            onSubmit={(event) => {
              event.preventDefault();
              navigate('identity', { ns: nsDraft.trim() === '' ? 'default' : nsDraft.trim() });
            }}
          >
            <label>
              Namespace{' '}
              <input value={nsDraft} onChange={(e) => setNsDraft(e.target.value)} autoComplete="off" />
            </label>{' '}
            <button type="submit" className="secondary">
              Show
            </button>{' '}
            <span className="muted">
              From one SelfSubjectRulesReview in <code>{namespace}</code>
              {review.value?.incomplete === true ? ' (incomplete: the server could not list every rule)' : ''}
              .
            </span>
          </form>
          {discoveryError !== undefined && discovery === undefined ? (
            <ErrorNotice title="Discovery failed, so the kinds are unknown" error={discoveryError} />
          ) : null}
          {review.error !== undefined ? (
            <ErrorNotice title="SelfSubjectRulesReview failed" error={review.error} reveal={false} />
          ) : null}
          {review.value?.evaluationError !== undefined ? (
            <p className="muted">Evaluation error: {review.value.evaluationError}</p>
          ) : null}
          {review.value !== undefined ? (
            <>
              <AccessMatrix
                resources={resources}
                rules={review.value.resourceRules ?? []}
                namespace={namespace}
                authorizationGroup={rulesReview.group}
              />
              <details className="identity-nonresource">
                <summary>Non-resource paths ({(review.value.nonResourceRules ?? []).length} rules)</summary>
                <ul className="access-rules">
                  {(review.value.nonResourceRules ?? []).map((r, i) => (
                    <li key={i}>
                      <code>
                        {r.verbs.join(' ')} {(r.nonResourceURLs ?? []).join(' ')}
                      </code>
                    </li>
                  ))}
                </ul>
              </details>
            </>
          ) : review.loading ? (
            <p role="status">
              <span className="spinner" aria-hidden="true" /> Asking the server what you may do…
            </p>
          ) : null}
        </section>
      </div>
    </main>
  );
}

function UserLine({ user }: { user: UserInfo }) {
  return (
    <>
      <code>{user.username ?? '(no name)'}</code>
      {user.uid !== undefined && user.uid !== '' ? <span className="muted"> uid {user.uid}</span> : null}
      {(user.groups ?? []).length > 0 ? (
        <>
          {' '}
          in groups{' '}
          {(user.groups ?? []).map((g, i) => (
            <span key={g}>
              {i > 0 ? ', ' : ''}
              <code>{g}</code>
            </span>
          ))}
        </>
      ) : null}
    </>
  );
}
