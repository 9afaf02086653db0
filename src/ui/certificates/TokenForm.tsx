/**
 * Minting a service account token, as `kubectl create token` does it: a
 * TokenRequest POSTed to `serviceaccounts/<name>/token` (as the identity
 * the UI acts as, which needs `create` on that subresource) with the
 * audiences, the lifetime and optionally the pod the token is bound to —
 * a bound token stops working when that pod is deleted.
 */

import { useId, useMemo, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { resourcePath } from '../../client/index';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { splitList } from '../common/split-list';
import { TextField } from '../common/TextField';
import { useFormAction } from '../common/useFormAction';
import { useLiveNames } from '../hooks/useLiveNames';
import type { ApiNames } from './names';
import type { TokenRequest } from './types';
import { useLiveObjects } from './useLiveObjects';

export interface MintedToken {
  namespace: string;
  account: string;
  audiences: string[];
  expirationSeconds: number | undefined;
  boundPod: string | undefined;
  token: string;
  expirationTimestamp: string | undefined;
}

export function TokenForm({ names, onMinted }: { names: ApiNames; onMinted: (t: MintedToken) => void }) {
  const client = useClient();
  const namespaces = useLiveNames(useMemo(() => ({ group: '', version: 'v1', resource: 'namespaces' }), []));
  const [namespace, setNamespace] = useState('default');
  const accounts = useLiveObjects<KubeObject>(
    useMemo(() => ({ group: '', version: 'v1', resource: 'serviceaccounts', namespace }), [namespace]),
  );
  const pods = useLiveObjects<KubeObject>(
    useMemo(() => ({ group: '', version: 'v1', resource: 'pods', namespace }), [namespace]),
  );
  const accountNames = accounts.items.map((a) => a.metadata?.name ?? '');
  const [account, setAccount] = useState('default');
  const [audiences, setAudiences] = useState('');
  const [lifetime, setLifetime] = useState('3600');
  const [pod, setPod] = useState('');
  const hint = useId();

  const { busy, error, onSubmit } = useFormAction(async () => {
    const aud = splitList(audiences);
    const seconds = lifetime.trim() === '' ? undefined : Number(lifetime.trim());
    const boundPod = pod === '' ? undefined : pods.items.find((p) => p.metadata?.name === pod);
    const body: TokenRequest = {
      apiVersion: `${names.authenticationGroup}/v1`,
      kind: 'TokenRequest',
      spec: {
        audiences: aud,
        ...(seconds === undefined ? {} : { expirationSeconds: seconds }),
        ...(boundPod === undefined
          ? {}
          : {
              boundObjectRef: {
                kind: 'Pod',
                apiVersion: 'v1',
                name: boundPod.metadata?.name ?? '',
                ...(boundPod.metadata?.uid === undefined ? {} : { uid: boundPod.metadata.uid }),
              },
            }),
      },
    };
    const path = resourcePath({
      group: '',
      version: 'v1',
      resource: 'serviceaccounts',
      namespace,
      name: account,
      subresource: 'token',
    });
    const answer = await client.send<TokenRequest>('POST', path, { body });
    const token = answer.body.status?.token;
    if (token === undefined || token === '') throw new Error('the TokenRequest came back without a token');
    onMinted({
      namespace,
      account,
      audiences: aud,
      expirationSeconds: seconds,
      boundPod: boundPod?.metadata?.name,
      token,
      expirationTimestamp: answer.body.status?.expirationTimestamp,
    });
  });

  return (
    <form className="card csr-form" onSubmit={onSubmit} aria-label="Mint a service account token">
      <h3>Mint a token</h3>
      <div className="csr-fields">
        <label>
          Namespace{' '}
          <select
            value={namespace}
            onChange={(e) => {
              setNamespace(e.target.value);
              // Every namespace has its `default` account (the service-account controller makes it).
              setAccount('default');
            }}
          >
            {(namespaces.includes(namespace) ? namespaces : [namespace, ...namespaces]).map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <label>
          Service account{' '}
          <select value={account} onChange={(e) => setAccount(e.target.value)}>
            {accountNames.includes(account) ? null : (
              <option value={account}>
                {account} ({accounts.loaded ? 'not found' : 'listing…'})
              </option>
            )}
            {accountNames.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <TextField
          label="Audiences"
          value={audiences}
          onChange={setAudiences}
          placeholder="empty: the API server's own"
          describedBy={hint}
        />
        <TextField
          label="Lifetime (expirationSeconds)"
          value={lifetime}
          onChange={setLifetime}
          inputMode="numeric"
        />
        <label>
          Bound to pod{' '}
          <select value={pod} onChange={(e) => setPod(e.target.value)}>
            <option value="">not bound</option>
            {pods.items.map((p) => (
              <option key={p.metadata?.name}>{p.metadata?.name}</option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted csr-hint" id={hint}>
        The API server accepts a token only for its own audience (the issuer, unless configured otherwise): a
        token for another audience is for someone else, and the API server answers it with 401. The lifetime
        is at least 600 seconds.
      </p>
      {accounts.error !== undefined ? (
        <ErrorNotice title="The service accounts could not be listed" error={accounts.error} />
      ) : null}
      <p className="button-row">
        <button type="submit" disabled={busy || account === ''}>
          {busy ? 'Minting…' : 'Mint token'}
        </button>
      </p>
      {error !== undefined ? <ErrorNotice title="The TokenRequest failed" error={error} /> : null}
    </form>
  );
}
