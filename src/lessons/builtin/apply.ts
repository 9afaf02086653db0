/** Lesson 8: server-side apply — managers, conflicts, force, shared ownership, list types. */

import type { LessonDocument } from '../format';
import { applyYaml, check, request, sent } from './common';

const ns = 'learn-apply';
const cmPath = `/api/v1/namespaces/${ns}/configmaps/shared`;
const svcPath = `/api/v1/namespaces/${ns}/services/front`;
const shared = { apiVersion: 'v1', resource: 'configmaps', namespace: ns, name: 'shared' };
const front = { apiVersion: 'v1', resource: 'services', namespace: ns, name: 'front' };

const cm = (data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n  namespace: ${ns}\ndata:\n${Object.entries(
    data,
  )
    .map(([k, v]) => `  ${k}: ${v}`)
    .join('\n')}\n`;

export const apply: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'server-side-apply',
  title: 'Server-side apply',
  part: 'Reading and writing',
  minutes: 5,
  goal: 'Apply configuration as a named field manager, meet a conflict with another manager, and resolve it by forcing or sharing; see lists merge by key.',
  sections: [
    {
      text: 'Apply is a PATCH with `Content-Type: application/apply-patch+yaml` and a `fieldManager`: you send the fields you care about, and the server records in `metadata.managedFields` which manager owns which field.\n\nApplying a different value to a field another manager owns is a 409 Conflict that names the field. Three ways out: apply again with `force=true` (you take the field), leave the field out (you stop caring), or apply the value it already has (you share it). The Apply lab shows all of this with colours.\n\nLists follow their schema: a list of type `map` (a Service’s `ports`, keyed by port and protocol) lets each manager own its own items.',
      spec: ['core-server-side-apply'],
    },
  ],
  start: { namespaces: [ns] },
  steps: [
    {
      id: 'first-apply',
      title: 'Apply as one manager',
      text: 'Apply `shared` with `data.owner: alice` and `data.color: red` as field manager `alice-tool` (`PATCH … ?fieldManager=alice-tool`, `Content-Type: application/apply-patch+yaml`). Open the result’s `managedFields`.',
      open: [
        { view: 'lab', label: 'Apply lab', params: { scenario: 'conflict' } },
        {
          view: 'console',
          label: 'Console: the apply PATCH',
          params: {
            method: 'PATCH',
            path: `${cmPath}?fieldManager=alice-tool`,
            contentType: applyYaml,
            body: cm({ owner: 'alice', color: 'red' }),
          },
        },
      ],
      checks: [
        check(
          'alice-tool owns fields of shared by apply',
          { object: shared },
          "object != null && object.metadata.managedFields.exists(m, m.manager == 'alice-tool' && m.operation == 'Apply')",
        ),
      ],
      showMe: [
        request('PATCH', cmPath, {
          contentType: applyYaml,
          query: { fieldManager: 'alice-tool' },
          body: cm({ owner: 'alice', color: 'red' }),
        }),
      ],
    },
    {
      id: 'conflict',
      title: 'Another manager conflicts',
      text: 'Apply `data.color: blue` as `bob-tool`. The answer is 409 Conflict naming `.data.color` and its owner.',
      checks: [
        sent(
          'An apply was answered 409 Conflict',
          "requests.exists(r, r.method == 'PATCH' && r.requestHeaders['content-type'].startsWith('application/apply-patch+yaml') && r.status == 409)",
        ),
      ],
      showMe: [
        request(
          'PATCH',
          cmPath,
          { contentType: applyYaml, query: { fieldManager: 'bob-tool' }, body: cm({ color: 'blue' }) },
          { expectStatus: [409] },
        ),
      ],
    },
    {
      id: 'resolve',
      title: 'Force it, or share it',
      text: 'Resolve it as `bob-tool`: apply again with `force=true` (bob takes `.data.color`), or apply `color: red`, the value it has (bob and alice share it).',
      checks: [
        check(
          'A second manager owns a field by apply',
          { object: shared },
          "object != null && object.metadata.managedFields.exists(m, m.manager != 'alice-tool' && m.operation == 'Apply')",
        ),
      ],
      showMe: [
        request('PATCH', cmPath, {
          contentType: applyYaml,
          query: { fieldManager: 'bob-tool', force: 'true' },
          body: cm({ color: 'blue' }),
        }),
      ],
    },
    {
      id: 'list-map',
      title: 'Two managers, one list',
      text: 'Apply a Service `front` with one port (80) as `team-a`, then as `team-b` apply only a second port (443). Ports are a list of type map: both stay, each owned by its manager.',
      checks: [
        check(
          'front has two ports, applied by two managers',
          { object: front },
          "object != null && object.spec.ports.size() == 2 && object.metadata.managedFields.filter(m, m.operation == 'Apply').size() >= 2",
        ),
      ],
      showMe: [
        request('PATCH', svcPath, {
          contentType: applyYaml,
          query: { fieldManager: 'team-a' },
          body: `apiVersion: v1\nkind: Service\nmetadata:\n  name: front\n  namespace: ${ns}\nspec:\n  ports:\n  - port: 80\n    protocol: TCP\n`,
        }),
        request('PATCH', svcPath, {
          contentType: applyYaml,
          query: { fieldManager: 'team-b' },
          body: `apiVersion: v1\nkind: Service\nmetadata:\n  name: front\n  namespace: ${ns}\nspec:\n  ports:\n  - port: 443\n    protocol: TCP\n`,
        }),
      ],
    },
  ],
};
