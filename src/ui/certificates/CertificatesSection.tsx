/**
 * Identity → Certificate signing: the request form on the left; on the
 * right the live list of CertificateSigningRequests and the chosen one's
 * detail (state diagram, approve/deny, the decoded certificate, "use as
 * identity"). Everything is sent as the identity the UI acts as, so
 * switching identity in the header shows who may approve what.
 */

import { useMemo, useState } from 'react';
import type { CertificateSigningRequest } from '../../api/certificates';
import { CsrDetail } from './CsrDetail';
import { CsrForm } from './CsrForm';
import { CsrList } from './CsrList';
import { namingProfile } from '../../machinery/naming';
import { preferences } from '../lib/preferences';
import { apiNames } from './names';
import { useClusterCA } from './useClusterCA';
import { useLiveObjects } from './useLiveObjects';
import { NowActingAs } from '../identity/NowActingAs';
import './certificates.css';

export function CertificatesSection() {
  const names = useMemo(() => apiNames(namingProfile(preferences.profile())), []);
  const ref = useMemo(
    () => ({ group: names.certificatesGroup, version: 'v1', resource: 'certificatesigningrequests' }),
    [names],
  );
  const live = useLiveObjects<CertificateSigningRequest>(ref);
  const ca = useClusterCA(names);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const current = selected === undefined ? undefined : live.items.find((c) => c.metadata?.name === selected);
  const gone = selected === undefined || current !== undefined ? undefined : live.deleted.get(selected);
  return (
    <>
      <NowActingAs authorizationGroup={names.profile.suffixed('authorization')} />
      <div className="csr-columns">
        <CsrForm names={names} onSubmitted={setSelected} />
        <div className="csr-right">
          <CsrList live={live} selected={selected} onSelect={setSelected} />
          {current !== undefined || gone !== undefined ? (
            <CsrDetail
              csr={(current ?? gone) as CertificateSigningRequest}
              deleted={current === undefined}
              names={names}
              ca={ca.value}
              caError={ca.error}
            />
          ) : selected !== undefined ? (
            <p className="muted" role="status">
              Waiting for <code>{selected}</code> to appear in the watch…
            </p>
          ) : (
            <p className="muted">Submit a request, or choose one in the list.</p>
          )}
        </div>
      </div>
    </>
  );
}
