/**
 * Whom the Workshop's controls act as (decision 0064): the sandbox's owner
 * — the learner in this browser — not the identity chosen in the header.
 * Reset, export, import, the settings, the admission plugins and the audit
 * log are the sandbox's own endpoints (`/sandbox/v1/*`), outside the
 * cluster API like backing up etcd or restarting the server, and the
 * browser host serves them to its owner whoever the header names. Said
 * plainly at the top of the view, and louder while acting as someone else.
 */

import { useActingAs } from '../identity/IdentityContext';
import { actingLabel } from '../identity/IdentitySwitcher';

export function OwnerNotice() {
  const acting = useActingAs();
  const other = acting !== undefined && acting.name !== 'admin';
  return (
    <p
      className={`owner-notice${other ? ' is-other' : ''}`}
      role="note"
      aria-label="Whom these controls act as"
    >
      {other ? (
        <>
          <strong>
            These controls do not act as {actingLabel(acting)}: they act as the sandbox&apos;s owner, you.
          </strong>{' '}
        </>
      ) : (
        <>
          <strong>
            These controls act as the sandbox&apos;s owner (you), not as the identity in the header.
          </strong>{' '}
        </>
      )}
      Reset, export, import, the settings, the admission plugins and the audit log work on the sandbox itself,
      outside the cluster API and its RBAC — like backing up etcd or restarting the server. An export holds
      everything, Secrets and the cluster CA&apos;s private key included: keep it private. A scenario resets
      as the owner, then creates its objects as the identity in the header. On the Node host the same
      endpoints are authorized like any request: only admin may use them there.
    </p>
  );
}
