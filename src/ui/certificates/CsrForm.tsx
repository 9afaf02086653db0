/**
 * The request form: who the certificate is for (CN the user, O the
 * groups), which signer, the usages that signer allows, SANs and a
 * lifetime, with the signer's rules checked as you type. Submitting
 * generates a key pair and a PKCS#10 request in the page and POSTs the
 * CertificateSigningRequest as the identity the UI acts as; the key stays
 * in this tab (key-vault) for "use as identity".
 */

import { useId, useMemo, useState } from 'react';
import type { CertificateSigningRequest } from '../../api/certificates';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { splitList } from '../common/split-list';
import { TextField } from '../common/TextField';
import { useFormAction } from '../common/useFormAction';
import { csrObject, defaultRequestName, generateRequest } from './csr-request';
import { keepKey } from './key-vault';
import type { ApiNames } from './names';
import { SignerRules } from './SignerRules';
import { blocking, builtInSigners, checkDraft, outcome, signerFor, type RequestDraft } from './signers';

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

  const { busy, error, onSubmit } = useFormAction(async () => {
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
  });

  return (
    <form className="card csr-form" onSubmit={onSubmit} aria-label="New certificate request">
      <h3>New certificate request</h3>
      <div className="csr-fields">
        <TextField label="User (CN)" value={user} onChange={setUser} />
        <TextField label="Groups (O)" value={groups} onChange={setGroups} placeholder="comma-separated" />
        <TextField
          label="Request name"
          value={requestName}
          onChange={setRequestName}
          placeholder={`${draft.commonName || 'request'}-xxxxx`}
        />
        <label className="csr-wide">
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
          <TextField label="Custom signer name" value={customName} onChange={setCustomName} />
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
        <TextField
          label="DNS SANs"
          value={dns}
          onChange={setDns}
          placeholder={signer.sans === 'forbidden' ? 'not allowed by this signer' : 'node1.example, …'}
        />
        <TextField
          label="IP SANs"
          value={ips}
          onChange={setIps}
          placeholder={signer.sans === 'forbidden' ? 'not allowed by this signer' : '10.0.0.5, …'}
        />
        <TextField
          label="expirationSeconds"
          value={expiration}
          onChange={setExpiration}
          inputMode="numeric"
          placeholder="signer default (1 year)"
          className="csr-wide"
        />
      </div>
      {/* The button before the rules: it names the outcome itself ("Submit anyway (…)"), and stays in the first viewport. */}
      <p className="button-row csr-submit">
        <button type="submit" disabled={busy || blocked}>
          {busy ? 'Generating the key…' : submitText[outcome(checks)]}
        </button>
      </p>
      <SignerRules checks={checks} id={ids.rules} />
      <p className="muted csr-hint">
        An ECDSA P-256 key is generated in this page and signs the PKCS#10 request; only the request is sent,
        as the identity the UI acts as. The key stays in this tab.
      </p>
      {error !== undefined ? <ErrorNotice title="Submitting the request failed" error={error} /> : null}
    </form>
  );
}
