// The ClusterRole aggregation controller against a running Node host: it
// fills an aggregated role from the roles its selectors match (selector by
// selector, matches in name order, duplicates once), follows updates and
// deletes of the sources, writes by server-side apply under its own field
// manager, and turns the bootstrap policy's admin/edit/view into the real
// server's chain (view feeds edit, edit feeds admin).
import { SandboxClock } from '../machinery/clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initFor, startTestHost, type TestHost } from '../../test/support/host';
import type { ClusterRole, PolicyRule } from '../auth/policy/types';
import { createClient, type ApiClient } from '../client/client';
import { ApiError } from '../client/errors';
import { namingProfile } from '../machinery/naming';
import { aggregatedRules, clusterRoleAggregationController, sameRule } from './clusterrole-aggregation';
import type { Controller } from './types';

const profile = namingProfile('orch');
const RBAC = profile.suffixed('rbac.authorization');
const ref = { group: RBAC, version: 'v1', resource: 'clusterroles' };

let host: TestHost;
let client: ApiClient;
let controller: Controller;

beforeAll(async () => {
  host = await startTestHost();
  // The host's CA and administrator credentials, as every request of the harness carries them.
  client = createClient({
    baseUrl: host.url,
    fetch: async (request) => {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
      const init: RequestInit = { method: request.method, headers: request.headers, signal: request.signal };
      if (body !== undefined) init.body = body;
      return fetch(request.url, initFor(request.url, init));
    },
  });
  controller = clusterRoleAggregationController({
    client,
    profile,
    now: () => new Date(),
    clock: new SandboxClock(),
  });
  controller.start();
});
afterAll(async () => {
  controller.stop();
  await host.close();
});

function role(name: string, rules: PolicyRule[] | null, labels: Record<string, string> = {}): ClusterRole {
  return { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, labels }, rules };
}

async function rulesOf(name: string): Promise<PolicyRule[] | null | undefined> {
  return (await client.get<ClusterRole>({ ...ref, name })).rules;
}

async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const r1: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
const r2: PolicyRule = { verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'] };
const r3: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz'] };

describe('clusterrole aggregation', () => {
  it('unions the matching roles in name order, each rule once, and follows changes', async () => {
    const label = { 'example.com/aggregate-to-team': 'true' };
    await client.create(ref, role('team-b', [r2, r1], label));
    await client.create(ref, role('team-a', [r1], label));
    await client.create(ref, role('unrelated', [r3]));
    const team = role('team', null);
    team.aggregationRule = { clusterRoleSelectors: [{ matchLabels: label }] };
    await client.create(ref, team);

    await eventually(async () => expect(await rulesOf('team')).toEqual([r1, r2]));
    const stored = await client.get<ClusterRole>({ ...ref, name: 'team' });
    const managers = (stored.metadata.managedFields ?? []).map((m) => `${m.manager} ${m.operation}`);
    expect(managers).toContain('clusterrole-aggregation-controller Apply');

    // A source changes: the aggregate follows.
    const b = await client.get<ClusterRole>({ ...ref, name: 'team-b' });
    await client.update({ ...ref, name: 'team-b' }, { ...b, rules: [r3] });
    await eventually(async () => expect(await rulesOf('team')).toEqual([r1, r3]));

    // A source goes away: its rules go with it.
    await client.delete({ ...ref, name: 'team-a' });
    await eventually(async () => expect(await rulesOf('team')).toEqual([r3]));

    // Rules written by hand into an aggregated role are replaced.
    const t = await client.get<ClusterRole>({ ...ref, name: 'team' });
    await client.update({ ...ref, name: 'team' }, { ...t, rules: [r1, r2, r3] });
    await eventually(async () => expect(await rulesOf('team')).toEqual([r3]));
  });

  it('takes selectors in order and supports match expressions', async () => {
    await client.create(ref, role('expr-z', [r1], { tier: 'gold' }));
    await client.create(ref, role('expr-y', [r2], { tier: 'silver' }));
    const agg = role('expr-agg', null);
    agg.aggregationRule = {
      clusterRoleSelectors: [
        { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold'] }] },
        { matchExpressions: [{ key: 'tier', operator: 'In', values: ['silver', 'gold'] }] },
      ],
    };
    await client.create(ref, agg);
    // First selector: expr-z; second: expr-y then expr-z (r1 already present).
    await eventually(async () => expect(await rulesOf('expr-agg')).toEqual([r1, r2]));
  });

  it('chains admin, edit and view as the bootstrap policy labels them', async () => {
    // The shape of the default policy: view feeds edit, edit feeds admin, each also fed by its
    // system:aggregate-to-* part. (The policy data itself lives in src/auth, which controllers may not import.)
    const to = (r: 'admin' | 'edit' | 'view'): string => `${RBAC}/aggregate-to-${r}`;
    const aggregated = (
      name: string,
      from: 'admin' | 'edit' | 'view',
      labels: Record<string, string> = {},
    ) => {
      const r = role(name, null, labels);
      r.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [to(from)]: 'true' } }] };
      return r;
    };
    const toAdmin = [
      {
        verbs: ['create'],
        apiGroups: [`authorization.${profile.groupSuffix}`],
        resources: ['localsubjectaccessreviews'],
      },
    ];
    const toEdit = [r2];
    const toView = [r1, r3];
    for (const r of [
      aggregated('admin', 'admin'),
      aggregated('edit', 'edit', { [to('admin')]: 'true' }),
      aggregated('view', 'view', { [to('edit')]: 'true' }),
      role('system:aggregate-to-admin', toAdmin, { [to('admin')]: 'true' }),
      role('system:aggregate-to-edit', toEdit, { [to('edit')]: 'true' }),
      role('system:aggregate-to-view', toView, { [to('view')]: 'true' }),
    ])
      // Once the server seeds the policy itself, these roles are already there (and fuller).
      await client.create(ref, r).catch((e: unknown) => {
        if (!(e instanceof ApiError) || e.code !== 409) throw e;
      });
    const rulesFrom = async (name: string) => (await rulesOf(name)) ?? [];
    const union = (a: PolicyRule[], b: PolicyRule[]) => [
      ...a,
      ...b.filter((r) => !a.some((x) => sameRule(x, r))),
    ];
    await eventually(async () => {
      const view = await rulesFrom('system:aggregate-to-view');
      const edit = await rulesFrom('system:aggregate-to-edit');
      const admin = await rulesFrom('system:aggregate-to-admin');
      expect(await rulesOf('view')).toEqual(view);
      // edit: its selector matches system:aggregate-to-edit and view, in that (name) order.
      expect(await rulesOf('edit')).toEqual(union(edit, view));
      // admin: edit, then system:aggregate-to-admin.
      expect(await rulesOf('admin')).toEqual(union(await rulesFrom('edit'), admin));
    });
    await controller.idle();
  });
});

describe('aggregatedRules', () => {
  it('skips the aggregated role itself and ignores roles without matching labels', () => {
    const self = role('self', [r3], { a: 'b' });
    self.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] };
    expect(aggregatedRules(self, [self, role('other', [r1], { a: 'b' }), role('no', [r2])])).toEqual([r1]);
  });
});
