/**
 * Where a suggested grant's flow stands (opened, dry-run shown, applied),
 * kept outside React and keyed by the suggested objects. The panel that
 * shows it lives under an error notice, and a view that retries a failed
 * request (the explorer's list and watch loop) clears and sets its error on
 * every attempt, which unmounts and remounts the notice; state kept in the
 * component would be lost mid-way through a dry run. Keyed by the role's
 * kind, namespace and name, so the same 403 met again shows the same step.
 */

import { useCallback, useSyncExternalStore } from 'react';

export interface GrantPreview {
  path: string;
  kind: string;
  name: string;
  before: string;
  after: string;
}

export type GrantPhase =
  | { name: 'closed' }
  | { name: 'idle' }
  | { name: 'busy'; what: string }
  | { name: 'previewed'; previews: GrantPreview[] }
  | { name: 'applied'; previews: GrantPreview[] }
  | { name: 'failed'; error: unknown; step: string };

const closed: GrantPhase = { name: 'closed' };
const phases = new Map<string, GrantPhase>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setGrantPhase(key: string, phase: GrantPhase): void {
  phases.set(key, phase);
  for (const l of listeners) l();
}

/** The phase of the grant `key` names, and a setter; `closed` until first opened. */
export function useGrantPhase(key: string): [GrantPhase, (phase: GrantPhase) => void] {
  const phase = useSyncExternalStore(subscribe, () => phases.get(key) ?? closed);
  const set = useCallback((next: GrantPhase) => setGrantPhase(key, next), [key]);
  return [phase, set];
}

/** The key of a suggested grant: its role's kind, namespace and name. */
export function grantKey(role: { kind?: string; metadata?: { namespace?: string; name?: string } }): string {
  return `${role.kind ?? ''}/${role.metadata?.namespace ?? ''}/${role.metadata?.name ?? ''}`;
}
