/**
 * RBAC remembers its decisions per identity and request (see
 * src/auth/authz/rbac.ts) until any Role, ClusterRole or binding changes.
 * Through HTTP, each step asks the same question again right after the
 * change that should alter the answer: a grant, a narrowed role, a removed
 * binding, a role created after the binding that names it, a ClusterRole
 * bound cluster-wide and then deleted — and an identity never gets another
 * identity's remembered answer.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ profile: 'kubernetes' });
});

afterAll(async () => {
  await host.close();
});

const rbac = '/apis/rbac.authorization.k8s.io/v1';
const list = '/api/v1/namespaces/default/configmaps';

/** alice's answer to listing ConfigMaps in `default`, asked twice (the second read may come from the remembered decision). */
async function aliceLists(): Promise<number[]> {
  const first = await host.request('GET', list, { as: 'alice' });
  const second = await host.request('GET', list, { as: 'alice' });
  return [first.status, second.status];
}

async function send(method: string, path: string, body?: unknown): Promise<void> {
  const r = await host.request(method, path, body === undefined ? {} : { body });
  expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
}

const role = (verbs: string[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: 'cm-reader', namespace: 'default' },
  rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }],
});

const binding = (roleKind: 'Role' | 'ClusterRole', roleName: string, name = 'cm-reader') => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: roleKind === 'Role' ? 'RoleBinding' : 'ClusterRoleBinding',
  metadata: roleKind === 'Role' ? { name, namespace: 'default' } : { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
});

describe('remembered RBAC decisions follow every RBAC change on the next request', () => {
  it('a grant, a narrowed role and a removed binding each change the very next answer', async () => {
    expect(await aliceLists()).toEqual([403, 403]);

    await send('POST', `${rbac}/namespaces/default/roles`, role(['get', 'list']));
    await send('POST', `${rbac}/namespaces/default/rolebindings`, binding('Role', 'cm-reader'));
    expect(await aliceLists()).toEqual([200, 200]);

    const current = await host.request('GET', `${rbac}/namespaces/default/roles/cm-reader`);
    await send('PUT', `${rbac}/namespaces/default/roles/cm-reader`, {
      ...role(['get']),
      metadata: current.body.metadata,
    });
    expect(await aliceLists()).toEqual([403, 403]);

    await send('DELETE', `${rbac}/namespaces/default/roles/cm-reader`);
    await send('POST', `${rbac}/namespaces/default/roles`, role(['list']));
    expect(await aliceLists()).toEqual([200, 200]);

    await send('DELETE', `${rbac}/namespaces/default/rolebindings/cm-reader`);
    expect(await aliceLists()).toEqual([403, 403]);
    await send('DELETE', `${rbac}/namespaces/default/roles/cm-reader`);
  });

  it('a binding to a missing ClusterRole starts granting when the role is created, and stops when it is deleted', async () => {
    await send('POST', `${rbac}/clusterrolebindings`, binding('ClusterRole', 'cm-lister', 'alice-cm-lister'));
    expect(await aliceLists()).toEqual([403, 403]);

    await send('POST', `${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'cm-lister' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
    });
    expect(await aliceLists()).toEqual([200, 200]);

    await send('DELETE', `${rbac}/clusterroles/cm-lister`);
    expect(await aliceLists()).toEqual([403, 403]);
    await send('DELETE', `${rbac}/clusterrolebindings/alice-cm-lister`);
  });

  it("one identity's remembered allow is never another identity's answer", async () => {
    await send('POST', `${rbac}/namespaces/default/roles`, role(['list']));
    await send('POST', `${rbac}/namespaces/default/rolebindings`, binding('Role', 'cm-reader'));
    expect(await aliceLists()).toEqual([200, 200]);
    const other = await host.request('GET', list, { as: 'service-account' });
    expect(other.status).toBe(403);
    const anonymous = await host.request('GET', list, { as: 'anonymous' });
    expect(anonymous.status).toBe(403);
    await send('DELETE', `${rbac}/namespaces/default/rolebindings/cm-reader`);
    await send('DELETE', `${rbac}/namespaces/default/roles/cm-reader`);
  });
});
