/**
 * The system namespaces loop of the real server's bootstrap controller:
 * every minute it creates `kube-system`, `kube-public` and `kube-node-lease`
 * (the profile's names) when they do not exist. Only `default`, `kube-system`
 * and `kube-public` are refused deletion (NamespaceLifecycle); the node lease
 * namespace may be deleted (`kubectl delete namespace --all` does), and it is
 * this loop that brings it back, so that the node agents can renew their
 * Leases again instead of their nodes staying unreachable. The minute is the
 * server's clock's: moving the clock runs the pass.
 */

import type { Clock } from '../machinery/clock';
import type { NamingProfile } from '../machinery/naming';

/** The real loop's period (`SystemNamespacesInterval`). */
export const systemNamespacesIntervalMs = 60_000;

/** The namespaces the loop keeps: the real server's list (`default`, which NamespaceLifecycle keeps, is not in it). */
export function systemNamespaces(profile: NamingProfile): string[] {
  return [profile.systemNamespace, profile.publicNamespace, profile.nodeLeaseNamespace];
}

/**
 * Runs `ensure` every interval of the server's clock, one pass at a time; a failed pass is reported through
 * `failed` (once per message, as the loop logs each time) and tried again at the next tick. Returns a stop function.
 */
export function runSystemNamespaces(
  clock: Clock,
  ensure: () => Promise<void>,
  failed: (e: unknown) => void,
  intervalMs = systemNamespacesIntervalMs,
): () => void {
  let stopped = false;
  let cancel: (() => void) | undefined;
  const tick = (): void => {
    cancel = undefined;
    if (stopped) return;
    void ensure()
      .catch(failed)
      .finally(() => {
        if (!stopped) cancel = clock.setTimer(intervalMs, tick);
      });
  };
  cancel = clock.setTimer(intervalMs, tick);
  return () => {
    stopped = true;
    cancel?.();
  };
}
