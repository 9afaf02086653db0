/**
 * Every template the explorer's Create panel and the editor offer creates
 * its object on the first try: for each kind discovery serves (both naming
 * profiles, alpha and beta review groups switched on), the template is
 * POSTed exactly as the UI would send it to a fresh sandbox and must answer
 * 201 (reviews answer 201 with a status too). A kind that needs another
 * object first gets that object from its own template; a kind that cannot
 * be created at all is listed with the reason, printed, and must really
 * lack the `create` verb.
 */

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { APIResource } from '../src/api/meta';
import { discover } from '../src/client/discovery';
import { parseManifest } from '../src/ui/lib/manifest';
import type { ResourceChoice } from '../src/ui/lib/resource-choice';
import { templateFor, templateKey } from '../src/ui/explorer/template';
import { startTestHost, type TestHost } from './support/host';

/** Kinds created from another kind's template first (by template key). */
const prerequisites: Record<string, string[]> = {
  // A Binding is named after the pod it schedules.
  'core/bindings': ['core/pods'],
};

/** Kinds that cannot be created from any template, with the reason. */
const notCreatable: Record<string, string> = {
  'core/componentstatuses': 'read-only: the server reports component health, it does not accept new ones',
};

function collectionPath(choice: ResourceChoice, namespace: string): string {
  const base = choice.group === '' ? `/api/${choice.version}` : `/apis/${choice.groupVersion}`;
  return `${base}${choice.resource.namespaced ? `/namespaces/${namespace}` : ''}/${choice.resource.name}`;
}

const profiles = [
  {
    profile: 'orch',
    runtimeConfig: 'authentication.orch.io/v1beta1=true,authentication.orch.io/v1alpha1=true',
  },
  {
    profile: 'kubernetes',
    runtimeConfig: 'authentication.k8s.io/v1beta1=true,authentication.k8s.io/v1alpha1=true',
  },
] as const;

for (const { profile, runtimeConfig } of profiles)
  describe(`templates create on the first try (profile ${profile})`, () => {
    it('every served kind', async () => {
      const start = () => startTestHost({ profile, runtimeConfig });
      const probe = await start();
      // The harness sends the administrator's credentials by default.
      const discovery = await discover(async <T>(path: string) => {
        const answer = await probe.request('GET', path);
        return answer.body as T;
      });
      await probe.close();
      const choices: ResourceChoice[] = discovery.groupVersions.flatMap((gv) =>
        gv.resources.map((resource: APIResource) => ({
          group: gv.group,
          version: gv.version,
          groupVersion: gv.groupVersion,
          resource,
        })),
      );
      expect(choices.length).toBeGreaterThan(50);
      const byKey = new Map(choices.map((c) => [templateKey(c), c]));
      const failures: string[] = [];
      let created = 0;
      // One fresh sandbox per profile. Versions of one kind share their objects: before a later version's
      // template is created, the earlier version's object of the same name is deleted.
      const host: TestHost = await start();
      const made = new Set<string>();
      try {
        for (const choice of choices) {
          const key = templateKey(choice);
          const skip = notCreatable[key];
          if (skip !== undefined) {
            console.log(
              `${choice.groupVersion} ${choice.resource.kind}: no template can create it (${skip})`,
            );
            expect(choice.resource.verbs).not.toContain('create');
            continue;
          }
          for (const needed of prerequisites[key] ?? []) {
            if (made.has(`prerequisite ${needed}`)) continue;
            const first = byKey.get(needed);
            if (first === undefined) throw new Error(`${key} needs ${needed}, which is not served`);
            const answer = await host.request('POST', collectionPath(first, 'default'), {
              body: parse(templateFor(first, 'default')),
            });
            expect([200, 201, 409], `${needed} (needed by ${key})`).toContain(answer.status);
            made.add(`prerequisite ${needed}`);
            made.add(`${first.resource.name}/${first.resource.kind}`);
          }
          // parseManifest is what the Create panel and the editor run on the text.
          const object = parseManifest(templateFor(choice, 'default'));
          const name = (object.metadata as { name?: string } | undefined)?.name;
          // Objects are shared by every version of a kind, and Events by both groups that serve them.
          const resourceKey = `${choice.resource.name}/${choice.resource.kind}`;
          if (made.has(resourceKey) && name !== undefined)
            await host.request('DELETE', `${collectionPath(choice, 'default')}/${name}?gracePeriodSeconds=0`);
          const answer = await host.request('POST', collectionPath(choice, 'default'), { body: object });
          if (answer.status === 201) {
            created++;
            made.add(resourceKey);
          } else
            failures.push(
              `${choice.groupVersion} ${choice.resource.kind}: ${answer.status} ${String(answer.body?.message)}`,
            );
        }
      } finally {
        await host.close();
      }
      expect(failures).toEqual([]);
      expect(created).toBeGreaterThan(50);
    }, 240_000);
  });
