/**
 * The requests, live, as `kubectl get csr` lists them (name, signer,
 * requestor, requested duration, condition, age); choosing one opens its
 * detail. Requests deleted while watched stay in the list, marked
 * garbage-collected, until the page reloads.
 */

import type { CertificateSigningRequest } from '../../api/certificates';
import { ErrorNotice } from '../common/ErrorNotice';
import { formatAge } from '../lib/age';
import { useNow } from '../hooks/useNow';
import { conditionColumn } from './csr-state';
import type { LiveObjects } from './useLiveObjects';

export function CsrList({
  live,
  selected,
  onSelect,
}: {
  live: LiveObjects<CertificateSigningRequest>;
  selected: string | undefined;
  onSelect: (name: string) => void;
}) {
  const now = useNow(10_000);
  const rows = [
    ...live.items.map((csr) => ({ csr, deleted: false })),
    ...[...live.deleted.values()].map((csr) => ({ csr, deleted: true })),
  ];
  return (
    <section className="card csr-list" aria-labelledby="csr-list-title">
      <h3 id="csr-list-title">Requests</h3>
      {live.error !== undefined ? (
        <ErrorNotice
          title={
            live.stale
              ? 'Listing failed as this identity (showing the requests last listed)'
              : 'Listing failed'
          }
          error={live.error}
          reveal={false}
        />
      ) : null}
      {rows.length === 0 ? (
        <p className="muted">{live.loaded ? 'No certificate signing requests yet.' : 'Listing…'}</p>
      ) : (
        <table className="access-table csr-table">
          <caption className="visually-hidden">Certificate signing requests</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Signer</th>
              <th scope="col">Requestor</th>
              <th scope="col">Condition</th>
              <th scope="col">Age</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ csr, deleted }) => {
              const name = csr.metadata?.name ?? '';
              return (
                <tr
                  key={`${name}${deleted ? ' deleted' : ''}`}
                  aria-current={name === selected ? 'true' : undefined}
                >
                  <th scope="row">
                    <button type="button" className="link-button" onClick={() => onSelect(name)}>
                      {name}
                    </button>
                  </th>
                  <td>{csr.spec?.signerName}</td>
                  <td>{csr.spec?.username}</td>
                  <td>{deleted ? 'Garbage-collected' : conditionColumn(csr)}</td>
                  <td>{formatAge(csr.metadata?.creationTimestamp, now)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
