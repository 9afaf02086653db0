/**
 * Server-side Tables over real HTTP against the Node host, in both
 * profiles: the per-kind columns (with `priority: 1` for the wide ones) and
 * rows, the default Name / Created At columns for kinds without a printer,
 * and kubectl printing them in profile kubernetes (`get ns`, `get pods -o
 * wide`). The kubectl scenarios are skipped, with the reason printed, when
 * kubectl is missing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namingProfile } from '../src/machinery/naming';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const skip = kubectlSkipReason();

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', labels: { app: 'web' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx' }], nodeName: 'node-a' },
};

for (const profileName of ['kubernetes', 'orch'] as const) {
  const profile = namingProfile(profileName);
  const tableAccept = `application/json;as=Table;v=v1;g=${profile.metaGroup}`;

  describe(`Tables (profile ${profileName})`, () => {
    let host: TestHost;
    const table = (path: string) => host.request('GET', path, { headers: { Accept: tableAccept } });
    beforeAll(async () => {
      host = await startTestHost({ profile: profileName });
      await host.request('POST', '/api/v1/namespaces/default/pods', { body: pod });
      await host.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: '1', b: '2' } },
      });
    });
    afterAll(async () => {
      await host.close();
    });

    it('namespaces: Name, Status, Age', async () => {
      const r = await table('/api/v1/namespaces');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ kind: 'Table', apiVersion: `${profile.metaGroup}/v1` });
      expect(r.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
        'Name',
        'Status',
        'Age',
      ]);
      const row = r.body.rows.find((x: { cells: string[] }) => x.cells[0] === 'default');
      expect(row.cells[1]).toBe('Active');
      expect(row.cells[2]).toMatch(/^\d+s$/);
      expect(row.object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'default' } });
    });

    it('pods: every column, the wide ones with priority 1', async () => {
      const r = await table('/api/v1/namespaces/default/pods/web-1');
      const columns = r.body.columnDefinitions as { name: string; priority: number }[];
      expect(columns.map((c) => c.name)).toEqual([
        'Name',
        'Ready',
        'Status',
        'Restarts',
        'Age',
        'IP',
        'Node',
        'Nominated Node',
        'Readiness Gates',
      ]);
      expect(columns.filter((c) => c.priority === 1).map((c) => c.name)).toEqual([
        'IP',
        'Node',
        'Nominated Node',
        'Readiness Gates',
      ]);
      expect(r.body.rows[0].cells).toEqual([
        'web-1',
        '0/1',
        expect.any(String),
        '0',
        expect.stringMatching(/^\d+s$/),
        '<none>',
        'node-a',
        '<none>',
        '<none>',
      ]);
    });

    it('config maps count data; kinds without a printer keep Name and Created At', async () => {
      const cm = await table('/api/v1/namespaces/default/configmaps');
      expect(cm.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Data', 'Age']);
      expect(cm.body.rows[0].cells.slice(0, 2)).toEqual(['cfg', 2]);
      const roles = await table(`/apis/${profile.suffixed('rbac.authorization')}/v1/clusterroles`);
      expect(
        roles.body.columnDefinitions.map((c: { name: string; type: string }) => [c.name, c.type]),
      ).toEqual([
        ['Name', 'string'],
        ['Created At', 'date'],
      ]);
    });

    // kubectl asks for Tables of the upstream meta group only (in profile orch it falls back to JSON and prints
    // its own columns), so these scenarios exist for profile kubernetes only.
    const kubectlScenarios =
      profileName === 'kubernetes' ? describe.skipIf(skip !== undefined) : () => undefined;
    kubectlScenarios('kubectl', () => {
      const k = (...args: string[]) => kubectl(host.kubeconfigPath, args);

      it('get ns prints NAME STATUS AGE', async () => {
        const r = await k('get', 'ns');
        expect(r.code).toBe(0);
        expect(r.stdout.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+AGE$/);
        expect(r.stdout).toMatch(/\ndefault\s+Active\s+\d+s\n/);
      });

      it('get pods shows the wide columns only with -o wide', async () => {
        const narrow = await k('get', 'pods');
        expect(narrow.stdout.split('\n')[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
        const wide = await k('get', 'pods', '-o', 'wide');
        expect(wide.stdout.split('\n')[0]).toMatch(
          /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/,
        );
        expect(wide.stdout).toMatch(/web-1\s+0\/1\s+\S+\s+0\s+\d+s\s+<none>\s+node-a\s+<none>\s+<none>/);
      });

      it('get configmaps prints DATA', async () => {
        const r = await k('get', 'cm', 'cfg');
        expect(r.stdout).toMatch(/^NAME\s+DATA\s+AGE\ncfg\s+2\s+\d+s\n$/);
      });
    });
  });
}
