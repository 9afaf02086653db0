/**
 * The header's "Acting as" control: a button naming the identity the UI
 * acts as, opening a small form to choose another — a built-in user by
 * token (admin, alice), by client certificate (admin-cert: its key is
 * imported with WebCrypto and signs each request), the service account, an
 * OIDC user minted on the spot by the sandbox's issuer (subject and groups),
 * or anonymous (no credential) — optionally impersonating a user and groups.
 * The choice goes to the IdentityStore, which every request reads and which
 * keeps it for this browser tab; all views then fetch again as that identity.
 */

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { splitList } from '../common/split-list';
import { TextField } from '../common/TextField';
import {
  actingAsBuiltIn,
  credentialOf,
  mintOidcToken,
  type ActingAs,
  type Impersonation,
  type SandboxIdentity,
} from '../lib/identity';
import { routeHref } from '../lib/route';
import { useActingAs, useIdentityStore } from './IdentityContext';

/** The label of an identity in the header: its name, and whom it impersonates. */
export function actingLabel(acting: ActingAs | undefined): string {
  if (acting === undefined) return '…';
  const imp = acting.impersonate;
  return imp !== undefined && imp.user !== '' ? `${acting.name} → ${imp.user}` : acting.name;
}

const methodLabel: Record<string, string> = {
  token: 'bearer token',
  certificate: 'client certificate',
  oidc: 'OIDC id_token',
  anonymous: 'no credential',
};

export function IdentitySwitcher() {
  const store = useIdentityStore();
  const acting = useActingAs();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    // Resolve the default (admin) so the header names it before the first request has gone out.
    void store.resolve();
  }, [store]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const method = acting?.method ?? (acting?.token !== undefined ? 'token' : 'anonymous');
  return (
    <div className="identity-switcher">
      <button
        ref={button}
        type="button"
        className="identity-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Acting as ${actingLabel(acting)} (${methodLabel[method] ?? method}). Change identity`}
        // The full name, which the button may cut short at 1280 px.
        title={`Acting as ${actingLabel(acting)} (${methodLabel[method] ?? method}): every view sends its requests with this identity`}
        data-identity={acting?.name}
        onClick={() => setOpen(!open)}
      >
        <span className="identity-button-caption" aria-hidden="true">
          as
        </span>{' '}
        <span className="identity-button-name">{actingLabel(acting)}</span> <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div
          ref={panel}
          id={panelId}
          className="identity-popover"
          role="dialog"
          aria-label="Choose the identity the UI acts as"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              close();
            }
          }}
        >
          <IdentityForm
            current={acting}
            onDone={(next) => {
              store.set(next);
              close();
            }}
            onCancel={close}
          />
        </div>
      ) : null}
    </div>
  );
}

type Choice =
  | { kind: 'builtin'; name: string }
  | { kind: 'saved'; name: string }
  | { kind: 'oidc' }
  | { kind: 'anonymous' };

function choiceOf(acting: ActingAs | undefined, saved: readonly ActingAs[]): Choice {
  if (acting === undefined) return { kind: 'builtin', name: 'admin' };
  if (saved.some((a) => a.name === acting.name)) return { kind: 'saved', name: acting.name };
  if (acting.method === 'oidc') return { kind: 'oidc' };
  if (acting.method === 'anonymous') return { kind: 'anonymous' };
  return { kind: 'builtin', name: acting.name };
}

function choiceKey(choice: Choice): string {
  return choice.kind === 'builtin' || choice.kind === 'saved' ? `${choice.kind}:${choice.name}` : choice.kind;
}

/** The form inside the popover; also used on the identity view. */
export function IdentityForm({
  current,
  onDone,
  onCancel,
}: {
  current: ActingAs | undefined;
  onDone: (acting: ActingAs) => void;
  onCancel?: () => void;
}) {
  const store = useIdentityStore();
  const [identities, setIdentities] = useState<SandboxIdentity[] | undefined>(undefined);
  const saved = store.saved();
  const [choice, setChoice] = useState<Choice>(() => choiceOf(current, saved));
  const [sub, setSub] = useState(
    current?.method === 'oidc' ? (current.expected?.username.replace(/^oidc:/, '') ?? 'bob') : 'bob',
  );
  const [oidcGroups, setOidcGroups] = useState(
    current?.method === 'oidc'
      ? (current.expected?.groups ?? [])
          .filter((g) => g !== 'system:authenticated')
          .map((g) => g.replace(/^oidc:/, ''))
          .join(', ')
      : 'developers',
  );
  const [impUser, setImpUser] = useState(current?.impersonate?.user ?? '');
  const [impGroups, setImpGroups] = useState((current?.impersonate?.groups ?? []).join(', '));
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const name = useId();

  useEffect(() => {
    let live = true;
    store.identities().then(
      (list) => live && setIdentities(list),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [store]);

  useEffect(() => {
    if (identities !== undefined) first.current?.focus();
  }, [identities]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const impersonate: Impersonation | undefined =
        impUser.trim() === '' ? undefined : { user: impUser.trim(), groups: splitList(impGroups) };
      let next: ActingAs;
      const adopted = choice.kind === 'saved' ? saved.find((a) => a.name === choice.name) : undefined;
      if (adopted !== undefined) {
        // Made in this tab (Identity → Certificate signing or Service account tokens); impersonation is chosen below.
        const { impersonate: _previous, ...own } = adopted;
        next = own;
        if (next.certificate !== undefined) await credentialOf(next.certificate);
      } else if (choice.kind === 'anonymous') {
        next = { name: 'anonymous', method: 'anonymous' };
      } else if (choice.kind === 'oidc') {
        if (sub.trim() === '') throw new Error('Enter a subject (sub) for the OIDC user.');
        const groups = splitList(oidcGroups);
        const minted = await mintOidcToken(sub.trim(), groups);
        next = {
          name: `oidc:${sub.trim()}`,
          method: 'oidc',
          token: minted.idToken,
          // The sandbox's API server maps the claims with the prefix `oidc:` (--oidc-username-prefix/--oidc-groups-prefix).
          expected: {
            username: `oidc:${sub.trim()}`,
            groups: [...groups.map((g) => `oidc:${g}`), 'system:authenticated'],
          },
        };
      } else {
        const found = identities?.find((i) => i.name === choice.name);
        if (found === undefined) throw new Error(`The sandbox lists no identity ${choice.name}.`);
        next = actingAsBuiltIn(found);
        // Import the key now, so a key WebCrypto cannot read fails here rather than on every request.
        if (next.certificate !== undefined) await credentialOf(next.certificate);
      }
      onDone(impersonate === undefined ? next : { ...next, impersonate });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  const selected = choiceKey(choice);
  const radio = (key: string, value: Choice, label: string, hint: string, index: number) => (
    <label key={key} className="identity-choice">
      <input
        ref={index === 0 ? first : undefined}
        type="radio"
        name={name}
        value={key}
        checked={selected === key}
        onChange={() => setChoice(value)}
      />
      <span>
        {label} <span className="muted">{hint}</span>
      </span>
    </label>
  );

  return (
    <form className="identity-form" onSubmit={(event) => void submit(event)}>
      <fieldset>
        <legend>Act as</legend>
        {identities === undefined && error === undefined ? (
          <p className="muted">Loading identities…</p>
        ) : null}
        {(identities ?? []).map((identity, i) =>
          radio(
            `builtin:${identity.name}`,
            { kind: 'builtin', name: identity.name },
            identity.name,
            identity.clientCertificatePEM !== undefined
              ? `certificate · ${identity.username}`
              : `token · ${identity.username}`,
            i,
          ),
        )}
        {saved.map((acting) =>
          radio(
            `saved:${acting.name}`,
            { kind: 'saved', name: acting.name },
            acting.name,
            `${acting.method === 'certificate' ? 'certificate' : 'token'} · ${acting.expected?.username ?? ''}`,
            -1,
          ),
        )}
        {radio('oidc', { kind: 'oidc' }, 'OIDC user', 'id_token from the sandbox issuer', -1)}
        {choice.kind === 'oidc' ? (
          <div className="identity-subfields">
            <TextField label="Subject (sub)" value={sub} onChange={setSub} />
            <TextField
              label="Groups"
              value={oidcGroups}
              onChange={setOidcGroups}
              placeholder="comma-separated"
            />
          </div>
        ) : null}
        {radio('anonymous', { kind: 'anonymous' }, 'anonymous', 'no credential · system:anonymous', -1)}
      </fieldset>
      <fieldset>
        <legend>Impersonate (optional)</legend>
        <p className="muted identity-hint">
          Sent as <code>Impersonate-User</code>/<code>Impersonate-Group</code>; the identity above needs the{' '}
          <code>impersonate</code> verb.
        </p>
        <label>
          User <input value={impUser} onChange={(e) => setImpUser(e.target.value)} autoComplete="off" />
        </label>
        <label>
          Groups{' '}
          <input
            value={impGroups}
            onChange={(e) => setImpGroups(e.target.value)}
            placeholder="comma-separated"
            autoComplete="off"
          />
        </label>
      </fieldset>
      {error !== undefined ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      <p className="identity-actions">
        <button type="submit" disabled={busy || (identities === undefined && choice.kind === 'builtin')}>
          {busy ? 'Switching…' : 'Act as this identity'}
        </button>
        {onCancel !== undefined ? (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <a href={routeHref('identity')} onClick={() => onCancel?.()}>
          Who am I? What can I do?
        </a>
      </p>
    </form>
  );
}
