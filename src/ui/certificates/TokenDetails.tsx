/**
 * A minted token, decoded — its header and claims as JSON, and the facts
 * that matter (issuer, subject, audiences, issued and expiry times, the pod
 * it is bound to) — with "use as identity" (a bearer-token identity of this
 * tab) and the same token made with kubectl on the Node host.
 */

import { useMemo, useState } from 'react';
import { CodeBlock } from '../common/CodeBlock';
import { CopyButton } from '../common/CopyButton';
import { ErrorNotice } from '../common/ErrorNotice';
import { useIdentityStore } from '../identity/IdentityContext';
import { preferences } from '../lib/preferences';
import { durationText } from './certificate-info';
import { audiencesOf, claimDate, decodeJwt, serviceAccountUser } from './jwt';
import { createTokenCommand, kubeconfigTokenUser } from './kubeconfig';
import type { MintedToken } from './TokenForm';

export function TokenDetails({ minted }: { minted: MintedToken }) {
  const store = useIdentityStore();
  const [adopted, setAdopted] = useState(false);
  const decoded = useMemo(() => {
    try {
      return { value: decodeJwt(minted.token) };
    } catch (error) {
      return { error };
    }
  }, [minted.token]);
  const user = serviceAccountUser(minted.namespace, minted.account);
  const label = `sa:${minted.namespace}/${minted.account}`;
  const target = preferences.nodeHost();
  if (decoded.value === undefined)
    return <ErrorNotice title="The token is not a readable JWT" error={decoded.error} />;
  const { header, claims } = decoded.value;
  const issued = claimDate(claims, 'iat');
  const expires = claimDate(claims, 'exp');
  return (
    <section className="card csr-detail" aria-labelledby="token-title" data-testid="token-details">
      <h3 id="token-title">
        Token for <code>{user.username}</code>
      </h3>
      <dl className="access-facts">
        <dt>Issuer</dt>
        <dd>
          <code>{String(claims['iss'] ?? '')}</code>
        </dd>
        <dt>Subject</dt>
        <dd>
          <code>{String(claims['sub'] ?? '')}</code>
        </dd>
        <dt>Audiences</dt>
        <dd>{audiencesOf(claims).join(', ')}</dd>
        <dt>Valid</dt>
        <dd>
          {issued?.toISOString() ?? '?'} → {expires?.toISOString() ?? 'no expiry'}
          {issued !== undefined && expires !== undefined ? (
            <span className="muted">
              {' '}
              ({durationText(Math.round((expires.getTime() - issued.getTime()) / 1000))})
            </span>
          ) : null}
        </dd>
        <dt>Bound to</dt>
        <dd>
          {minted.boundPod === undefined
            ? 'nothing (valid until it expires)'
            : `pod ${minted.boundPod} (invalid once it is deleted)`}
        </dd>
      </dl>
      <div className="token-parts">
        <CodeBlock text={JSON.stringify(header, null, 2)} label="JWT header" />
        <CodeBlock text={JSON.stringify(claims, null, 2)} label="JWT claims" />
      </div>
      <p className="button-row">
        <button
          type="button"
          onClick={() => {
            store.adopt({ name: label, method: 'token', token: minted.token, expected: user });
            setAdopted(true);
          }}
        >
          Use as identity
        </button>
        <CopyButton text={minted.token} label="Copy the token" />
        {adopted ? (
          <span role="status">
            Acting as <code>{label}</code>: every request now carries this token.
          </span>
        ) : null}
      </p>
      <details className="csr-kubectl">
        <summary>kubectl on the Node host</summary>
        <CodeBlock
          text={createTokenCommand(
            target,
            minted.namespace,
            minted.account,
            minted.audiences,
            minted.expirationSeconds,
            minted.boundPod,
          )}
          label="kubectl create token"
        />
        <CodeBlock text={kubeconfigTokenUser(user.username, minted.token)} label="kubeconfig user entry" />
      </details>
    </section>
  );
}
