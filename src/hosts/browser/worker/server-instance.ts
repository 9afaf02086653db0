/**
 * The worker's one API server, created on first use. The browser stops an
 * idle service worker after 30–45 s and starts it again for the next event;
 * all state is in IndexedDB, so a fresh module instance simply creates the
 * server again on its next request. A failed start is forgotten so that the
 * next request retries instead of failing forever. It resolves once the
 * server answers (`serving`), before its post-start writes are done.
 */

import { createApiServer, type ApiServer } from '../../../server/index';
import { isProfileName, namingProfile, type ProfileName } from '../../../machinery/naming';
import { defaultBrowserAuditPolicy } from '../../../server/admission-settings';
import { openStorage } from './storage';
import { pageScriptRunner } from './page-script-runner';

/** The IndexedDB store of a profile: one per profile, so switching profiles never mixes objects. */
export function storeName(profile: ProfileName): string {
  return `orch-sandbox-${profile}`;
}

/** The profile the worker was registered with (`/sw.js?profile=kubernetes`); default `orch`. */
export function profileFromScriptUrl(scriptUrl: string): ProfileName {
  const requested = new URL(scriptUrl).searchParams.get('profile');
  return requested !== null && isProfileName(requested) ? requested : 'orch';
}

let current: Promise<ApiServer> | undefined;
/** `current`'s server once it has started. */
let started: ApiServer | undefined;

/** The server once it has started (a request then need not wait for `apiServer`'s promise, a turn per request). */
export function startedApiServer(): ApiServer | undefined {
  return started;
}

/** The server, started by the first call. */
export function apiServer(profile: ProfileName): Promise<ApiServer> {
  if (current === undefined) {
    const starting = (async () => {
      // The sandbox API is the learner's own in the browser: reset, import and the identities list are open to the page.
      const server = createApiServer({
        storage: openStorage(storeName(profile)),
        profile,
        openSandboxApi: true,
        // JavaScript webhook backends run in a Worker of an open sandbox page (a service worker cannot start one).
        scriptRunner: pageScriptRunner(),
        // The browser has no log file: the live audit view shows every request at Metadata unless the workshop settings change it.
        defaultAuditPolicy: defaultBrowserAuditPolicy(namingProfile(profile)),
        // The page's origin is where the worker answers the API: cluster-info publishes it (with the cluster CA).
        advertisedURL: location.origin,
        // As on a kubeadm-made cluster (`--enable-bootstrap-token-auth`), so the bootstrap token flow works here too.
        authentication: { bootstrapTokens: true },
        // The controllers and the simulated cluster (a lazy script) start once the first request was answered.
        deferControllers: true,
        // The post-start writes wait for the page's first screen (its first requests and a pause after them).
        deferPostStart: true,
        // On the worker's performance timeline, for `npm run bench -- timeline` (bench/first-visit-timeline.ts).
        startStep: (step) => performance.mark(`orch:${step}`),
        // A create's answer goes out before its watch events are encoded and read by in-process clients.
        watchesAfterAnswer: true,
        // A GET's kept answer goes out as a Blob registered once, not a string registered on every answer (0087).
        keptAnswersAsBlobs: true,
      });
      // A fresh store's cluster CA (the X.509 script and a key pair) is made once the page's first screen is
      // answered: the page's first call lists the identities with `?certificates=deferred`, which does not wait
      // for it, and making it beside the start took the worker's thread from the first screen's requests. The
      // full list (the identity picker) and whatever else needs the CA first make it on demand. The same holds
      // for the service-account signer's key (an RSA generation): the deferred list leaves its token out.
      server.firstRequestsDone.then(
        () => {
          server.prepareClusterCA();
          server.prepareServiceAccountKey();
        },
        () => undefined, // a start that failed is reported by `serving` below
      );
      // The first answers need only this; the default RBAC policy and the other start-up objects are written
      // beside them (`server.ready`, which `/readyz` reports).
      await server.serving;
      // The server keeps answering; `/readyz` names the post-start step that did not finish.
      server.ready.catch((error: unknown) =>
        console.error(
          `the API server's post-start steps failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      return server;
    })();
    starting.then(
      (server) => {
        if (current === starting) started = server;
      },
      () => {
        if (current === starting) current = undefined;
      },
    );
    current = starting;
  }
  return current;
}
