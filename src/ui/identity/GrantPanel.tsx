/**
 * Applies a suggested Role and binding as the built-in admin, the way a
 * careful operator would: first a server-side dry run (`dryRun=All`) of both
 * objects, shown as a diff against what is stored now, and only after an
 * explicit confirmation the real apply. Both requests carry the admin's
 * token explicitly (the UI's identity layer leaves a request that already
 * has `Authorization` alone), because the identity that was refused is
 * exactly the one that may not grant itself anything. Server-side apply is
 * used rather than create, so applying the same grant twice is harmless.
 * After the apply the identity store is refreshed: every view fetches again
 * and the refused request is retried with the new permission.
 */

import type { KubeObject } from '../../api/meta';
import { ApiError, errorFromResponse } from '../../client/index';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { LineDiffView } from '../common/LineDiffView';
import { toYaml } from '../lib/yaml-text';
import { grantKey, useGrantPhase, type GrantPreview } from './grant-state';
import { useIdentityStore } from './IdentityContext';

const fieldManager = 'sandbox-identity';

const plurals: Record<string, string> = {
  Role: 'roles',
  RoleBinding: 'rolebindings',
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
};

/** The object's own path, from its apiVersion, kind, namespace and name. */
export function objectPath(object: KubeObject): string {
  const plural = plurals[object.kind ?? ''] ?? `${(object.kind ?? '').toLowerCase()}s`;
  const ns = object.metadata?.namespace;
  return `/apis/${object.apiVersion ?? ''}${ns === undefined ? '' : `/namespaces/${ns}`}/${plural}/${object.metadata?.name ?? ''}`;
}

/** What a reader compares: the object without managedFields, which only repeat it. */
function readable(object: KubeObject | undefined): string {
  if (object === undefined) return '';
  const { managedFields: _managed, ...metadata } = object.metadata ?? {};
  return toYaml({ ...object, metadata });
}

export function GrantPanel({
  role,
  binding,
  onCancel,
}: {
  role: KubeObject;
  binding: KubeObject;
  onCancel: () => void;
}) {
  const client = useClient();
  const store = useIdentityStore();
  // Kept outside the component: the error notice around it remounts on each retry of the refused request.
  const [phase, setPhase] = useGrantPhase(grantKey(role));

  async function adminToken(): Promise<string> {
    const admin = (await store.identities()).find((i) => i.name === 'admin');
    if (admin?.token === undefined) throw new Error('the sandbox lists no admin token');
    return admin.token;
  }

  async function asAdmin(
    token: string,
    method: string,
    path: string,
    body?: string,
  ): Promise<KubeObject | undefined> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/apply-patch+yaml';
    const response = await client.raw(method, path, body === undefined ? { headers } : { headers, body });
    if (method === 'GET' && response.status === 404) return undefined;
    if (!response.ok) throw await errorFromResponse(response);
    return (await response.json()) as KubeObject;
  }

  async function run(dryRun: boolean): Promise<void> {
    const step = dryRun ? 'Dry run' : 'Apply';
    setPhase({ name: 'busy', what: dryRun ? 'Sending a dry run as admin…' : 'Applying as admin…' });
    try {
      const token = await adminToken();
      const previews: GrantPreview[] = [];
      // The role first: a binding to a role that does not exist yet is allowed, but would grant nothing.
      for (const object of [role, binding]) {
        const path = objectPath(object);
        const query = `?fieldManager=${fieldManager}${dryRun ? '&dryRun=All' : ''}`;
        const before = await asAdmin(token, 'GET', path);
        const after = await asAdmin(token, 'PATCH', path + query, JSON.stringify(object));
        previews.push({
          path,
          kind: object.kind ?? '',
          name: object.metadata?.name ?? '',
          before: readable(before),
          after: readable(after),
        });
      }
      if (dryRun) setPhase({ name: 'previewed', previews });
      else {
        setPhase({ name: 'applied', previews });
        // What the identity may do changed: views fetch again (and the refused request succeeds).
        store.refresh();
      }
    } catch (error) {
      setPhase({ name: 'failed', error, step });
    }
  }

  return (
    <div className="grant-panel">
      <details className="grant-objects">
        <summary>The two objects (YAML)</summary>
        <pre className="code-block" tabIndex={0} aria-label="Suggested Role and binding">
          {`${toYaml(role)}---\n${toYaml(binding)}`}
        </pre>
      </details>
      {phase.name === 'idle' || phase.name === 'closed' || phase.name === 'failed' ? (
        <p className="button-row">
          <button type="button" onClick={() => void run(true)}>
            Dry run as admin
          </button>
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        </p>
      ) : null}
      {phase.name === 'busy' ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> {phase.what}
        </p>
      ) : null}
      {phase.name === 'failed' ? (
        <ErrorNotice
          title={`${phase.step} failed`}
          error={
            phase.error instanceof ApiError || phase.error instanceof Error
              ? phase.error
              : String(phase.error)
          }
        />
      ) : null}
      {phase.name === 'previewed' || phase.name === 'applied' ? (
        <>
          <p>
            {phase.name === 'previewed'
              ? 'The server accepted both in a dry run (nothing stored yet). What would change:'
              : 'Applied. Views fetch again with the new permission.'}
          </p>
          {phase.previews.map((p) => (
            <div key={p.path} className="grant-diff">
              <h5>
                {p.kind} {p.name} {p.before === '' ? '(new)' : '(changed)'}
              </h5>
              <LineDiffView before={p.before} after={p.after} label={`Diff of ${p.kind} ${p.name}`} />
            </div>
          ))}
          {phase.name === 'previewed' ? (
            <p className="button-row">
              <button type="button" onClick={() => void run(false)}>
                Confirm: apply as admin
              </button>
              <button type="button" className="secondary" onClick={onCancel}>
                Cancel
              </button>
            </p>
          ) : (
            <p className="button-row">
              <span className="success" role="status">
                Granted. {String(role['kind'])} and {String(binding['kind'])} are stored.
              </span>
              <button type="button" className="secondary small" onClick={() => setPhase({ name: 'idle' })}>
                Start over
              </button>
            </p>
          )}
        </>
      ) : null}
    </div>
  );
}
