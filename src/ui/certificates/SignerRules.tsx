/**
 * The rules a request must meet, checked as the learner types: each with
 * a mark, where it is enforced (the form, the API's validation, admission,
 * the signer), and for a broken one the words the server will use — the
 * first broken signer rule is the `Failed` condition's message to come.
 */

import type { RuleCheck, RuleSource } from './signers';

const sourceText: Record<RuleSource, string> = {
  form: 'form',
  api: 'API validation (422)',
  admission: 'admission (403)',
  signer: 'signer (Failed)',
};

export function SignerRules({ checks, id }: { checks: readonly RuleCheck[]; id: string }) {
  const broken = checks.filter((c) => !c.ok);
  const first = broken.find((c) => c.reported === true);
  return (
    <section className="csr-rules" aria-labelledby={id}>
      <h4 id={id}>Rules for this request</h4>
      <p className={`csr-rules-summary ${broken.length === 0 ? 'is-ok' : 'is-broken'}`} role="status">
        {first === undefined ? (
          'Meets every rule: the signer will issue it once approved.'
        ) : (
          <>
            Breaks <strong>{first.rule}</strong>, so the {sourceText[first.source]} answers:{' '}
            <code data-testid="expected-refusal">{first.message}</code>
          </>
        )}
      </p>
      <ul className="csr-rule-list" aria-label="Each rule and whether the request meets it">
        {checks.map((c) => (
          <li key={c.rule} className={c.ok ? 'is-ok' : c.reported === true ? 'is-reported' : 'is-broken'}>
            <span className="csr-rule-mark" aria-hidden="true">
              {c.ok ? '✓' : '✗'}
            </span>
            <span className="visually-hidden">{c.ok ? 'met:' : 'broken:'}</span> {c.rule}{' '}
            <span className="muted">({sourceText[c.source]})</span>
            {!c.ok && c.message !== undefined ? (
              <>
                <br />
                <code className="csr-rule-message">{c.message}</code>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
