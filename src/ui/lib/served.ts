/**
 * Whether the page is served by the worker of the chosen profile, and the
 * hold that keeps the UI's API requests in the page until it is. A first
 * visit renders the real shell while the worker script still downloads and
 * starts (decision 0112); the shell's requests must not reach the network
 * meanwhile (the preview or static server answers 404), nor, after a profile
 * switch, the old profile's worker. They wait here and go out the moment the
 * page's controller is the profile's worker. A browser without service
 * workers holds nothing: the connection gate shows why the server cannot
 * start there, and nothing is sent in its place.
 */

import { preferences } from './preferences';

/** The page's service worker container, if the browser offers one here. */
function container(): ServiceWorkerContainer | undefined {
  return typeof navigator === 'undefined'
    ? undefined
    : (navigator.serviceWorker as ServiceWorkerContainer | undefined);
}

/** Whether the page's controller is the worker of `profile` (`/sw.js?profile=…`; none means orch). */
export function servedBy(profile: string, workers = container()): boolean {
  const url = workers?.controller?.scriptURL;
  if (url === undefined) return false;
  return (new URL(url).searchParams.get('profile') ?? 'orch') === profile;
}

/** Whether the page has no controller at all: a first visit (or a hard reload) while the worker starts. */
export function uncontrolled(workers = container()): boolean {
  return workers !== undefined && workers.controller === null;
}

/** The hold of each container while it is not served (one listener however many requests wait). */
const waiting = new WeakMap<ServiceWorkerContainer, Promise<void>>();

/**
 * Undefined when requests may go out now (served by the profile's worker, or no service workers to wait
 * for); otherwise a promise that resolves once the profile's worker controls the page. It never rejects:
 * if the worker never takes over, the connection gate shows the failure and the requests stay held.
 */
export function untilServed(
  workers = container(),
  profile: () => string = () => preferences.profile(),
): Promise<void> | undefined {
  if (workers === undefined || servedBy(profile(), workers)) return undefined;
  let held = waiting.get(workers);
  if (held === undefined) {
    held = new Promise<void>((resolve) => {
      const check = () => {
        if (!servedBy(profile(), workers)) return;
        workers.removeEventListener('controllerchange', check);
        waiting.delete(workers);
        resolve();
      };
      workers.addEventListener('controllerchange', check);
    });
    waiting.set(workers, held);
  }
  return held;
}

/** Runs `send` at once when the page is served, or once it is (see `untilServed`). */
export function whenServed<T>(
  send: () => Promise<T>,
  workers = container(),
  profile?: () => string,
): Promise<T> {
  const held = untilServed(workers, profile);
  return held === undefined ? send() : held.then(send);
}

/** `fetch` for the API: held until the profile's worker serves the page. */
export const servedFetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  whenServed(() => fetch(input, init));
