/**
 * Legacy service-account token tracking (`LegacyServiceAccountTokenTracking`,
 * beta and on in v1.27): when a secret-based token authenticates a request,
 * its Secret gets the `<prefix>legacy-token-last-used` label
 * (`kubernetes.io/…` upstream, `orch.io/…` in the orch profile) with the UTC
 * date, written as the real API server writes it — a JSON merge patch of
 * name, namespace, uid and the label, through its loopback client — and at
 * most once a day: a label that already says today (or tomorrow, for a
 * clock a little behind another replica's) is left alone. The write happens
 * beside the request, never holding it up or failing it.
 */

import type { KubeObject } from '../api/meta';
import type { NamingProfile } from '../machinery/naming';

export interface LegacyTokenTrackerOptions {
  profile: NamingProfile;
  now: () => Date;
  /** Whether the feature gate is on (read at each use: gates can change at run time). */
  enabled: () => boolean;
  /** Sends the merge patch as the API server's loopback user; failures are only logged. */
  patch: (namespace: string, name: string, body: string) => Promise<Response>;
}

/** The label's name under a profile. */
export function lastUsedLabel(profile: NamingProfile): string {
  return profile.prefixed('legacy-token-last-used');
}

function utcDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The tracker the service-account authenticator calls with each Secret whose legacy token authenticated. */
export function legacyTokenTracker(o: LegacyTokenTrackerOptions): (secret: KubeObject) => void {
  const label = lastUsedLabel(o.profile);
  // Requests arriving before the informer sees a patch would each write it again: remember the day written.
  const written = new Map<string, string>();
  return (secret) => {
    if (!o.enabled()) return;
    const now = o.now();
    const today = utcDate(now);
    const tomorrow = utcDate(new Date(now.getTime() + 24 * 3600 * 1000));
    const lastUsed = secret.metadata?.labels?.[label];
    if (lastUsed === today || lastUsed === tomorrow) return;
    const namespace = secret.metadata?.namespace ?? '';
    const name = secret.metadata?.name ?? '';
    const key = `${namespace}/${name}`;
    if (written.get(key) === today) return;
    written.set(key, today);
    const body = JSON.stringify({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name, namespace, uid: secret.metadata?.uid, labels: { [label]: today } },
    });
    void o
      .patch(namespace, name, body)
      .then(async (response) => {
        if (response.ok) return;
        written.delete(key);
        console.error(
          `Failed to label legacy service account token ${name}/${namespace} with last-used date, err: ${(await response.text()).trim()}`,
        );
      })
      .catch((e: unknown) => {
        written.delete(key);
        console.error(
          `Failed to label legacy service account token ${name}/${namespace} with last-used date, err: ${String(e)}`,
        );
      });
  };
}
