/**
 * Identity → Service account tokens: pick a namespace and account, mint a
 * token, read it decoded and act as it.
 */

import { useMemo, useState } from 'react';
import { namingProfile } from '../../machinery/naming';
import { preferences } from '../lib/preferences';
import { apiNames } from './names';
import { TokenDetails } from './TokenDetails';
import { TokenForm, type MintedToken } from './TokenForm';
import { NowActingAs } from '../identity/NowActingAs';
import './certificates.css';

export function TokensSection() {
  const names = useMemo(() => apiNames(namingProfile(preferences.profile())), []);
  const [minted, setMinted] = useState<MintedToken | undefined>(undefined);
  return (
    <>
      <NowActingAs authorizationGroup={names.profile.suffixed('authorization')} />
      <div className="csr-columns">
        <TokenForm names={names} onMinted={setMinted} />
        <div className="csr-right">
          {minted === undefined ? (
            <p className="muted">Mint a token to see it decoded here.</p>
          ) : (
            <TokenDetails minted={minted} />
          )}
        </div>
      </div>
    </>
  );
}
