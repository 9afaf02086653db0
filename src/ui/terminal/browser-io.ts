/**
 * kubectl's host in the browser: the kubeconfig is made from the sandbox
 * identities (one context per identity, the current one being whom this
 * tab acts as, so `use-context` switches the tab's identity), files come
 * from the Terminal's file area, and requests go through the page's fetch
 * — answered by the in-browser server — and the request log, signed for a
 * certificate identity as the rest of the UI signs them. kubectl is built
 * for the naming profile the tab's server runs (decision 0063).
 */

import { compiledNamesFor, type KubectlIO, type KubeConfig, type RequestRecord } from '../../kubectl';
import { namingProfile } from '../../machinery/naming';
import { preferences } from '../lib/preferences';
import { signRequest } from '../../client/proof-of-possession';
import { actingAsBuiltIn, credentialOf, type ActingAs, type IdentityStore } from '../lib/identity';
import { recordingFetch, type RequestLog } from '../lib/request-log';
import { servedFetch } from '../lib/served';
import type { FileArea } from './file-area';

export interface TerminalHost {
  identities: IdentityStore;
  log: RequestLog;
  files: FileArea;
  stdout(text: string): void;
  stderr(text: string): void;
  stdin: string;
  signal: AbortSignal;
  onRequest(record: RequestRecord): void;
  /** Opens the Editor on an object (`kubectl edit`). */
  openEditor(path: string): void;
}

const cluster = 'orch-sandbox';

function userOf(acting: ActingAs): KubeConfig['users'][number]['user'] {
  if (acting.certificate !== undefined)
    return {
      'client-certificate-data': btoa(acting.certificate.certificatePEM),
      'client-key-data': btoa(acting.certificate.keyPEM),
    };
  return acting.token !== undefined ? { token: acting.token } : {};
}

/** The kubeconfig of this tab: every built-in and saved identity as a context. */
export async function terminalKubeconfig(store: IdentityStore): Promise<KubeConfig> {
  const builtIn = (await store.identities().catch(() => [])).map((i) => actingAsBuiltIn(i));
  const all = [...builtIn, ...store.saved().filter((s) => !builtIn.some((b) => b.name === s.name))];
  const current = (await store.resolve())?.name ?? 'admin';
  return {
    kind: 'Config',
    apiVersion: 'v1',
    preferences: {},
    clusters: [{ name: cluster, cluster: { server: location.origin } }],
    users: all.map((a) => ({ name: a.name, user: userOf(a) })),
    contexts: all.map((a) => ({ name: a.name, context: { cluster, user: a.name, namespace: 'default' } })),
    'current-context': current,
  };
}

export function browserKubectlIO(host: TerminalHost): KubectlIO {
  const base = recordingFetch(host.log, (request) => servedFetch(request));
  return {
    // kubectl as if built for this tab's server: its group names are the profile's (decision 0063).
    names: compiledNamesFor(namingProfile(preferences.profile())),
    stdout: host.stdout,
    stderr: host.stderr,
    stdin: async () => host.stdin,
    files: {
      read: async (path) => host.files.read(path),
      list: async (path) => host.files.folder(path),
      write: async (path, text) => host.files.write(path, text),
    },
    kubeconfig: {
      load: () => terminalKubeconfig(host.identities),
      async save(_explicit, config) {
        const name = config['current-context'];
        const builtIn = (await host.identities.identities()).find((i) => i.name === name);
        const acting =
          builtIn !== undefined
            ? actingAsBuiltIn(builtIn)
            : host.identities.saved().find((s) => s.name === name);
        if (acting !== undefined && acting.name !== host.identities.current()?.name)
          host.identities.set(acting);
      },
      describe: () => 'the sandbox identities',
    },
    transport: (connection) => async (request) => {
      if (connection.clientCertPEM !== undefined && connection.clientKeyPEM !== undefined) {
        const credential = await credentialOf({
          certificatePEM: connection.clientCertPEM,
          keyPEM: connection.clientKeyPEM,
        });
        return base(await signRequest(request, credential));
      }
      return base(request);
    },
    env: () => undefined,
    now: () => new Date(),
    signal: host.signal,
    onRequest: host.onRequest,
    openEditor: host.openEditor,
  };
}
