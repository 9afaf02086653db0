/**
 * The request form: who the certificate is for (CN the user, O the
 * groups), which signer, the usages that signer allows, SANs and a
 * lifetime, with the signer's rules checked as you type. Submitting
 * generates a key pair and a PKCS#10 request in the page and POSTs the
 * CertificateSigningRequest as the identity the UI acts as; the key stays
 * in this tab (key-vault) for "use as identity".
 */

import { useId, useMemo, useState, type FormEvent } from 'react';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { csrObject, defaultRequestName, generateRequest } from './csr-request';
import { keepKey } from './key-vault';
import type { ApiNames } from './names';
import { SignerRules } from './SignerRules';
import { blocking, builtInSigners, checkDraft, outcome, signerFor, type RequestDraft } from './signers';
import type { CertificateSigningRequest } from './types';

function splitList(text: string): string[] {
  return text
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const customValue = '__custom__';

const submitText: Record<ReturnType<typeof outcome>, string> = {
  form: 'Generate key and submit',
  ok: 'Generate key and submit',
  api: 'Submit anyway (the API server will refuse it)',
  admission: 'Submit anyway (admission will refuse it)',
  signer: 'Submit anyway (the signer will fail it)',
};

export function CsrForm({ names, onSubmitted }: { names: ApiNames; onSubmitted: (name: string) => void }) {
  const client = useClient();
  const signers = useMemo(() => builtInSigners(names), [names]);
  const [user, setUser] = useState('carol');
  const [groups, setGroups] = useState('developers');
  const [requestName, setRequestName] = useState('');
  const [signerChoice, setSignerChoice] = useState(names.signers.apiserverClient);
  const [customName, setCustomName] = useState('example.com/my-signer');
  const signerName = signerChoice === customValue ? customName.trim() : signerChoice;
  const signer = signerFor(names, signerName);
  const [usages, setUsages] = useState<string[]>([...signer.defaultUsages]);
  const [dns, setDns] = useState('');
  const [ips, setIps] = useState('');
  const [expiration, setExpiration] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const ids = { rules: useId(), usages: useId(), signer: useId() };

  const draft: RequestDraft = {
    commonName: user.trim(),
    organizations: splitList(groups),
    signerName,
    usages: signer.usages.filter((u) => usages.includes(u)),
    dnsNames: splitList(dns),
    ipAddresses: splitList(ips),
    expirationSeconds: expiration,
  };
  const checks = checkDraft(names, draft);
  const blocked = blocking(checks).length > 0;

  function chooseSigner(value: string) {
    setSignerChoice(value);
    const next = signerFor(names, value === customValue ? customName.trim() : value);
    setUsages([...next.defaultUsages]);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const name = requestName.trim() === '' ? defaultRequestName(draft.commonName) : requestName.trim();
      const generated = await generateRequest(draft);
      const body = csrObject(name, `${names.certificatesGroup}/v1`, generated.requestPEM, draft);
      const created = await client.create<CertificateSigningRequest>(
        { group: names.certificatesGroup, version: 'v1', resource: 'certificatesigningrequests' },
        body,
      );
      keepKey(created.spec?.request ?? body.spec?.request ?? '', generated.keyPEM);
      setRequestName('');
      onSubmitted(created.metadata?.name ?? name);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="card csr-form"
      onSubmit={(event) => void submit(event)}
      aria-label="New certificate request"
    >
      <h3>New certificate request</h3>
      <div className="csr-fields">
        <label>
          User (CN) <input value={user} onChange={(e) => setUser(e.target.value)} autoComplete="off" />
        </label>
        <label>
          Groups (O){' '}
          <input
            value={groups}
            onChange={(e) => setGroups(e.target.value)}
            placeholder="comma-separated"
            autoComplete="off"
          />
        </label>
        <label>
          Request name{' '}
          <input
            value={requestName}
            onChange={(e) => setRequestName(e.target.value)}
            placeholder={`${draft.commonName || 'request'}-xxxxx`}
            autoComplete="off"
          />
        </label>
        <label>
          Signer{' '}
          <select
            value={signerChoice}
            onChange={(e) => chooseSigner(e.target.value)}
            aria-describedby={ids.signer}
          >
            {signers.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
              </option>
            ))}
            <option value={customValue}>Custom signer…</option>
          </select>
        </label>
        {signerChoice === customValue ? (
          <label>
            Custom signer name{' '}
            <input value={customName} onChange={(e) => setCustomName(e.target.value)} autoComplete="off" />
          </label>
        ) : null}
        <p className="muted csr-signer-purpose" id={ids.signer}>
          {signer.purpose}
          {signer.autoApproved ? ' Node agents’ own requests are approved automatically.' : ''}
        </p>
      </div>
      <fieldset className="csr-usages">
        <legend id={ids.usages}>Usages (what this signer allows)</legend>
        {signer.usages.map((u) => (
          <label key={u} className="csr-usage">
            <input
              type="checkbox"
              checked={usages.includes(u)}
              onChange={(e) => setUsages(e.target.checked ? [...usages, u] : usages.filter((x) => x !== u))}
            />{' '}
            {u}
          </label>
        ))}
      </fieldset>
      <div className="csr-fields">
        <label>
          DNS SANs{' '}
          <input
            value={dns}
            onChange={(e) => setDns(e.target.value)}
            placeholder={signer.sans === 'forbidden' ? 'not allowed by this signer' : 'node1.example, …'}
            autoComplete="off"
          />
        </label>
        <label>
          IP SANs{' '}
          <input
            value={ips}
            onChange={(e) => setIps(e.target.value)}
            placeholder={signer.sans === 'forbidden' ? 'not allowed by this signer' : '10.0.0.5, …'}
            autoComplete="off"
          />
        </label>
        <label>
          expirationSeconds{' '}
          <input
            value={expiration}
            onChange={(e) => setExpiration(e.target.value)}
            inputMode="numeric"
            placeholder="signer default (1 year)"
            autoComplete="off"
          />
        </label>
      </div>
      <SignerRules checks={checks} id={ids.rules} />
      <p className="button-row">
        <button type="submit" disabled={busy || blocked}>
          {busy ? 'Generating the key…' : submitText[outcome(checks)]}
        </button>
      </p>
      <p className="muted csr-hint">
        An ECDSA P-256 key is generated in this page and signs the PKCS#10 request; only the request is sent,
        as the identity the UI acts as. The key stays in this tab.
      </p>
      {error !== undefined ? <ErrorNotice title="Submitting the request failed" error={error} /> : null}
    </form>
  );
}
