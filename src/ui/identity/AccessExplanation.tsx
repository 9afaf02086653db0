/**
 * The panel under every 401 and 403 the UI shows, built from the sandbox's
 * `X-Sandbox-Explain` header (carried by ApiError). A real server only says
 * "Unauthorized" or "User x cannot list resource y"; this says why. For a
 * 401: each authenticator that was tried and why it did not accept the
 * request. For a 403: who the server saw, what exactly was asked, each
 * authorizer's decision, the bindings that apply to the user with the rule
 * of their role that came closest and what that rule lacks, the bindings
 * that would allow the request but are bound to someone else, and the ready
 * Role and binding that would allow exactly this request — appliable as
 * admin after a dry run (GrantPanel, loaded on demand with its YAML).
 * A 403 leads with one line — who may not do what, where — and the Grant
 * button; the rest (decisions, bindings, closest rules, the error table's
 * Why/Next passed in as `why`) folds behind "Why?", so the fix is in the
 * first viewport and two refusals on one screen stay short.
 */

import { lazy, Suspense, useId, type ReactNode } from 'react';
import type {
  AuthenticationExplanation,
  AuthorizationExplanation,
  ConsideredBinding,
  Explanation,
} from '../../api/explain';
import { routeHref } from '../lib/route';
import { grantKey, useGrantPhase } from './grant-state';
import { ruleText } from './rules';

const GrantPanel = lazy(() => import('./GrantPanel').then((m) => ({ default: m.GrantPanel })));

export function AccessExplanation({ explanation, why }: { explanation: Explanation; why?: ReactNode }) {
  return explanation.kind === 'authentication' ? (
    <>
      {why}
      <AuthenticationPanel explanation={explanation} />
    </>
  ) : (
    <AuthorizationPanel explanation={explanation} why={why} />
  );
}

const resultText: Record<AuthenticationExplanation['attempts'][number]['result'], string> = {
  'no-credential': 'no credential of its kind',
  rejected: 'rejected the credential',
  error: 'failed to answer',
  accepted: 'accepted',
};

function AuthenticationPanel({ explanation }: { explanation: AuthenticationExplanation }) {
  const titleId = useId();
  const rejected = explanation.attempts.filter((a) => a.result === 'rejected' || a.result === 'error');
  return (
    <section className="access-explain" aria-labelledby={titleId} data-access-explain="authentication">
      <h3 id={titleId}>Why the server did not know you (401)</h3>
      <p>
        The request carried a credential, and no authenticator accepted it. A request with <em>no</em>{' '}
        credential would have been anonymous (<code>system:anonymous</code>) rather than refused; a request
        with a bad one is refused outright.
        {rejected.length > 0 ? (
          <>
            {' '}
            Refused by <strong>{rejected.map((a) => a.authenticator).join(', ')}</strong>.
          </>
        ) : null}
      </p>
      <table className="access-table">
        <caption className="visually-hidden">Authenticators tried, in order</caption>
        <thead>
          <tr>
            <th scope="col">Authenticator</th>
            <th scope="col">Result</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {explanation.attempts.map((attempt, i) => (
            <tr key={i} className={`attempt-${attempt.result}`}>
              <th scope="row">
                <code>{attempt.authenticator}</code>
              </th>
              <td>{resultText[attempt.result]}</td>
              <td>{attempt.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <span className="explanation-label">Next</span> Choose a working identity with{' '}
        <strong>Acting as</strong> in the header (an OIDC token expires; mint a new one there), or see{' '}
        <a href={routeHref('identity')}>who you are and what you may do</a>.
      </p>
    </section>
  );
}

/** Whether a binding's subjects include the user (the server writes `no match: …` otherwise). */
export function appliesToUser(b: ConsideredBinding): boolean {
  return !b.subjectMatch.startsWith('no match');
}

/** "list configmaps (group "") in namespace default" — the request as authorization saw it. */
export function describeAttributes(a: AuthorizationExplanation['attributes']): string {
  if (!a.resourceRequest) return `${a.verb} on the non-resource path ${a.path}`;
  const resource = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  const group = a.apiGroup === '' ? 'the core group ""' : `group ${a.apiGroup}`;
  const name = a.name === '' ? '' : ` named ${a.name}`;
  const where = a.namespace === '' ? ' (cluster-wide)' : ` in namespace ${a.namespace}`;
  return `${a.verb} ${resource}${name} in ${group}${where}`;
}

function bindingLabel(b: ConsideredBinding): string {
  return `${b.binding.kind} ${b.binding.namespace === undefined ? '' : `${b.binding.namespace}/`}${b.binding.name}`;
}

function AuthorizationPanel({ explanation, why }: { explanation: AuthorizationExplanation; why: ReactNode }) {
  const titleId = useId();
  const { user, attributes, decisions, considered, suggestion } = explanation;
  // Outside React state: this panel is remounted each time a retrying view sets its error again.
  const [grant, setGrant] = useGrantPhase(suggestion === undefined ? '' : grantKey(suggestion.role));
  const granting = grant.name !== 'closed';
  const applying = considered.filter(appliesToUser);
  const closest = [...applying]
    .filter((b) => b.missing !== undefined)
    .sort((x, y) => (x.missing?.length ?? 99) - (y.missing?.length ?? 99))
    .slice(0, 3);
  // Bindings whose role would allow this, bound to someone else: the usual "why does it work for them".
  const elsewhere = considered.filter((b) => !appliesToUser(b) && b.missing?.length === 0).slice(0, 4);
  const neededRule = (suggestion?.role['rules'] as Parameters<typeof ruleText>[0][] | undefined)?.[0];
  const anonymous = user.username === 'system:anonymous';
  const grantBlock =
    suggestion === undefined ? null : granting ? (
      <Suspense
        fallback={
          <p role="status">
            <span className="spinner" aria-hidden="true" /> Loading…
          </p>
        }
      >
        <GrantPanel
          role={suggestion.role}
          binding={suggestion.binding}
          onCancel={() => setGrant({ name: 'closed' })}
        />
      </Suspense>
    ) : null;
  return (
    <section className="access-explain" aria-labelledby={titleId} data-access-explain="authorization">
      <h3 id={titleId} className="visually-hidden">
        Why this was forbidden (403)
      </h3>
      <p className="access-lead">
        <code>{user.username}</code> may not <strong>{describeAttributes(attributes)}</strong>.{' '}
        {suggestion !== undefined && !granting ? (
          <button type="button" onClick={() => setGrant({ name: 'idle' })}>
            Grant this as admin…
          </button>
        ) : null}
      </p>
      {grantBlock}
      <details className="access-why">
        <summary>Why?</summary>
        {why}
        <dl className="access-facts">
          <dt>The server saw</dt>
          <dd>
            <code>{user.username}</code>
            {user.groups.length > 0 ? (
              <>
                {' '}
                in groups{' '}
                {user.groups.map((g, i) => (
                  <span key={g}>
                    {i > 0 ? ', ' : ''}
                    <code>{g}</code>
                  </span>
                ))}
              </>
            ) : null}
          </dd>
          <dt>It asked to</dt>
          <dd>{describeAttributes(attributes)}</dd>
          <dt>Decisions</dt>
          <dd>
            {decisions.map((d, i) => (
              <span key={i}>
                {i > 0 ? ' → ' : ''}
                {d.authorizer}: <strong>{d.decision}</strong>
                {d.reason !== '' ? ` (${d.reason})` : ''}
              </span>
            ))}
            . No authorizer allowed it, so it is denied: RBAC only adds permissions, it has no deny rules.
          </dd>
          {neededRule !== undefined ? (
            <>
              <dt>Missing rule</dt>
              <dd data-testid="missing-rule">
                <code>{ruleText(neededRule)}</code>
                {attributes.namespace !== '' ? ` in namespace ${attributes.namespace}` : ''}
              </dd>
            </>
          ) : null}
        </dl>
        {anonymous ? (
          <p>
            The request carried no credential, so it is anonymous. Anonymous users are only in{' '}
            <code>system:unauthenticated</code>: rules granted to <code>system:authenticated</code> do not
            reach them.
          </p>
        ) : null}
        <h4>Bindings that apply to you, and their closest rule</h4>
        {closest.length === 0 ? (
          <p className="muted">No binding names this user or any of its groups.</p>
        ) : (
          <ul className="access-bindings">
            {closest.map((b, i) => (
              <li key={i}>
                <strong>{bindingLabel(b)}</strong> → {b.role.kind} <code>{b.role.name}</code>
                {b.role.found ? '' : ' (the role does not exist!)'}{' '}
                <span className="muted">via {b.subjectMatch}</span>
                {b.closestRule !== undefined ? (
                  <>
                    <br />
                    closest rule <code>{ruleText(b.closestRule)}</code>
                    {(b.missing ?? []).length > 0 ? (
                      <>
                        {' '}
                        lacks <strong>{(b.missing ?? []).join(', ')}</strong>
                      </>
                    ) : null}
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {elsewhere.length > 0 ? (
          <>
            <h4>Would allow it, but bound to someone else</h4>
            <ul className="access-bindings">
              {elsewhere.map((b, i) => (
                <li key={i}>
                  <strong>{bindingLabel(b)}</strong> → {b.role.kind} <code>{b.role.name}</code>:{' '}
                  <span className="muted">{b.subjectMatch.replace(/^no match: /, '')}</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <details className="access-all">
          <summary>All {considered.length} bindings considered</summary>
          <table className="access-table">
            <caption className="visually-hidden">Every binding authorization considered</caption>
            <thead>
              <tr>
                <th scope="col">Binding</th>
                <th scope="col">Role</th>
                <th scope="col">Subjects</th>
                <th scope="col">Closest rule lacks</th>
              </tr>
            </thead>
            <tbody>
              {considered.map((b, i) => (
                <tr key={i} className={appliesToUser(b) ? 'binding-applies' : undefined}>
                  <th scope="row">{bindingLabel(b)}</th>
                  <td>
                    {b.role.kind} {b.role.name}
                    {b.role.found ? '' : ' (missing)'}
                  </td>
                  <td>{b.subjectMatch}</td>
                  <td>
                    {b.missing === undefined
                      ? '—'
                      : b.missing.length === 0
                        ? 'nothing'
                        : b.missing.join(', ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
        {suggestion !== undefined ? (
          <div className="access-grant">
            <h4>The grant that would allow exactly this</h4>
            <p>
              A {String(suggestion.role['kind'])} with that one rule, and a{' '}
              {String(suggestion.binding['kind'])} giving it to <code>{user.username}</code>. Nothing broader:
              RBAC grants should be as small as the task.{' '}
              <span className="muted">The button above applies it, after a dry run.</span>
            </p>
          </div>
        ) : null}
      </details>
    </section>
  );
}
