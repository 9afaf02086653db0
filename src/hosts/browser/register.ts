/**
 * Page side of the browser host: registers the service worker that runs the
 * API server and resolves once this page is controlled by it, so that the
 * page's first API request is answered by the worker and not by the network.
 */

import type { ProfileName } from '../../machinery/naming';
import { CLAIM_MESSAGE, PAGE_COMING_MESSAGE } from './messages';
import { hostScriptRuns } from './script-host';
import { workerRegistration, workerScriptUrl } from './worker-script';

export interface RegisterOptions {
  /** Worker script; default `/sw.js` (index.html's inline script registers that one too: see worker-script.ts). */
  scriptUrl?: string;
  /** Naming profile of the in-browser server; default `orch`. A different profile is a different worker script URL and store. */
  profile?: ProfileName;
}

/** How long to wait for the worker to take control before telling the user; installs are usually well under a second. */
const CONTROL_TIMEOUT_MS = 30_000;

export async function registerServiceWorker(
  options: RegisterOptions = {},
): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator)) {
    throw new Error(
      'This browser offers no service workers here (private window, or a page not served from https or localhost); the in-browser API server needs one.',
    );
  }
  const container = navigator.serviceWorker;
  // The worker asks this page to run JavaScript webhook backends (it cannot start Workers itself).
  hostScriptRuns(container);
  // A reload's next page is answered from the worker's cache without its thread, so the worker hears of it
  // here: its server keeps the cluster's background work behind that page's first requests (0120). Told at
  // `beforeunload`, as the navigation begins (`pagehide` comes only with the next page's commit, 20–100 ms
  // later), and again at `pagehide` for a navigation that skips it.
  const nextPageComing = () => container.controller?.postMessage({ type: PAGE_COMING_MESSAGE });
  addEventListener('beforeunload', nextPageComing);
  addEventListener('pagehide', nextPageComing);
  const url = workerScriptUrl(options.profile, options.scriptUrl);
  // Listen before registering: on a first visit the new worker claims the page as soon as it activates.
  const changed = new Promise<void>((resolve) =>
    container.addEventListener('controllerchange', () => resolve(), { once: true }),
  );
  const registering = container.register(url, workerRegistration);
  // A reload is already served by this worker: registering again only checks for an update (the browser
  // fetches the script and compares it), which the page need not wait for before its first request.
  if (
    container.controller !== null &&
    new URL(container.controller.scriptURL).href === new URL(url, location.href).href
  ) {
    registering.catch(() => undefined);
    return container.ready;
  }
  const registration = await registering;
  await withTimeout(
    untilControlled(container, changed),
    CONTROL_TIMEOUT_MS,
    'The service worker did not take control of this page (its install may have failed); reload to retry.',
  );
  return registration;
}

async function untilControlled(container: ServiceWorkerContainer, changed: Promise<void>): Promise<void> {
  if (container.controller !== null) return;
  const { active } = await container.ready;
  if (container.controller !== null) return;
  // A hard reload leaves the page uncontrolled although the worker is active, and claim() only runs at activation.
  active?.postMessage({ type: CLAIM_MESSAGE });
  await changed;
}

async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
