/** Lesson 14: CEL validation rules in a CRD — rules, messages, transition rules, and the cost budget. */

import type { LessonDocument } from '../format';
import { check, jsonMerge, request, sent } from './common';

const ns = 'learn-cel';
const group = 'learn.example.com';
const crdName = `rollouts.${group}`;
const crdPath = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';
const rollouts = `/apis/${group}/v1/namespaces/${ns}/rollouts`;

/** The Rollout definition; `bounded` adds the limits that make the uniqueness rule affordable. */
function rolloutCrd(bounded: boolean) {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'rollouts', singular: 'rollout', kind: 'Rollout' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-orch-validations': [
                    {
                      rule: 'self.minReplicas <= self.maxReplicas',
                      message: 'minReplicas must not exceed maxReplicas',
                    },
                  ],
                  properties: {
                    minReplicas: { type: 'integer' },
                    maxReplicas: { type: 'integer' },
                    mode: {
                      type: 'string',
                      'x-orch-validations': [{ rule: 'self == oldSelf', message: 'mode is immutable' }],
                    },
                    stages: {
                      type: 'array',
                      ...(bounded ? { maxItems: 20 } : {}),
                      items: { type: 'string', ...(bounded ? { maxLength: 40 } : {}) },
                      'x-orch-validations': [
                        { rule: 'self.all(a, self.exists_one(b, a == b))', message: 'stages must be unique' },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

const asYaml = (bounded: boolean) =>
  `apiVersion: apiextensions.orch.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${crdName}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: rollouts, singular: rollout, kind: Rollout}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-orch-validations:
            - rule: self.minReplicas <= self.maxReplicas
              message: minReplicas must not exceed maxReplicas
            properties:
              minReplicas: {type: integer}
              maxReplicas: {type: integer}
              mode:
                type: string
                x-orch-validations:
                - rule: self == oldSelf
                  message: mode is immutable
              stages:
                type: array${bounded ? '\n                maxItems: 20' : ''}
                items: {type: string${bounded ? ', maxLength: 40' : ''}}
                x-orch-validations:
                - rule: self.all(a, self.exists_one(b, a == b))
                  message: stages must be unique
`;

const crdObject = {
  apiVersion: 'apiextensions.orch.io/v1',
  resource: 'customresourcedefinitions',
  name: crdName,
};

export const celRules: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'cel-rules',
  title: 'Validation rules in CEL, and what they may cost',
  part: 'Extending the API',
  minutes: 5,
  goal: 'Write CEL validation rules into a CRD schema, see them refuse bad objects and changes, and keep a rule within the cost budget the server estimates up front.',
  sections: [
    {
      text: 'A schema says what type each field has; a rule says how fields relate. Under `x-orch-validations`, each rule is one CEL expression over `self` (the value at that point of the schema) that must be true, with a `message` for when it is not. A rule that also names `oldSelf` is a transition rule: it runs on updates only and compares the new value with the stored one — `self == oldSelf` makes a field immutable.\n\nRules run inside the server on every write, so they must be cheap. When the CRD is written, the server estimates each rule’s worst case from the schema: a list with no `maxItems` or a string with no `maxLength` may be huge, and a loop inside a loop over it multiplies that. A rule estimated over the budget is refused with the CRD, naming the factor. At run time, each evaluation also stops when it has spent its own budget.',
      spec: ['core-cel', 'core-limits'],
    },
  ],
  start: { namespaces: [ns] },
  cleanup: [crdObject],
  steps: [
    {
      id: 'too-costly',
      title: 'A rule too costly to accept',
      text: `Create the CustomResourceDefinition \`${crdName}\` from the Editor link. Its \`stages\` list is unbounded, and its rule compares every stage with every other: the server answers 422 — the estimated rule cost exceeds the budget.`,
      open: [
        { view: 'editor', label: 'Editor with the unbounded CRD', params: { text: asYaml(false) } },
        { view: 'spec', label: 'Spec: expression rules', params: { section: 'core-cel' } },
      ],
      hints: [
        'The message names the rule’s path (`spec.validation.openAPIV3Schema.properties[spec]…`) and the factor.',
      ],
      checks: [
        sent(
          'A CRD was refused for its rule’s cost',
          "requests.exists(r, r.status == 422 && r.message.contains('cost exceeds budget'))",
        ),
      ],
      showMe: [request('POST', crdPath, { body: rolloutCrd(false) }, { expectStatus: [422] })],
    },
    {
      id: 'bounded',
      title: 'Bound the list',
      text: 'Give `stages` a `maxItems` and its items a `maxLength` (the Editor link uses 20 and 40), and create the CRD again. The same rule is now affordable, and the CRD becomes Established.',
      open: [{ view: 'editor', label: 'Editor with the bounded CRD', params: { text: asYaml(true) } }],
      hints: [
        'The cost of the nested loop grows with the square of `maxItems`: a few hundred items is fine, a few thousand is not.',
      ],
      checks: [
        check(
          `${crdName} is Established, with stages bounded`,
          { object: crdObject },
          "object != null && has(object.status.conditions) && object.status.conditions.exists(c, c.type == 'Established' && c.status == 'True') && has(object.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.stages.maxItems)",
        ),
      ],
      showMe: [request('POST', crdPath, { body: rolloutCrd(true) })],
    },
    {
      id: 'rule',
      title: 'A rule refuses an object',
      text: `Create a Rollout in \`${ns}\` whose \`minReplicas\` is larger than its \`maxReplicas\`. The answer is 422, with the rule’s message at \`spec\`.`,
      open: [
        {
          view: 'editor',
          label: 'Editor with a Rollout',
          params: {
            text: `apiVersion: ${group}/v1\nkind: Rollout\nmetadata:\n  name: web\n  namespace: ${ns}\nspec:\n  minReplicas: 5\n  maxReplicas: 2\n  mode: canary\n`,
          },
        },
      ],
      checks: [
        sent(
          'A Rollout was refused by the replicas rule',
          "requests.exists(r, r.status == 422 && r.message.contains('not exceed maxReplicas'))",
        ),
      ],
      showMe: [
        request(
          'POST',
          rollouts,
          {
            body: {
              apiVersion: `${group}/v1`,
              kind: 'Rollout',
              metadata: { name: 'web' },
              spec: { minReplicas: 5, maxReplicas: 2, mode: 'canary' },
            },
          },
          { expectStatus: [422] },
        ),
      ],
    },
    {
      id: 'transition',
      title: 'A transition rule',
      text: 'Create a valid Rollout (for instance `minReplicas: 1`, `maxReplicas: 3`, `mode: canary`), then change its `mode`. The transition rule compares the new value with the stored one and refuses the update: `mode is immutable`.',
      hints: ['Creating the object does not run `self == oldSelf`: there is no old value yet.'],
      checks: [
        sent(
          'A change of mode was refused',
          "requests.exists(r, r.path.contains('/rollouts/') && r.status == 422 && r.message.contains('mode is immutable'))",
        ),
      ],
      showMe: [
        request('POST', rollouts, {
          body: {
            apiVersion: `${group}/v1`,
            kind: 'Rollout',
            metadata: { name: 'web' },
            spec: { minReplicas: 1, maxReplicas: 3, mode: 'canary' },
          },
        }),
        request(
          'PATCH',
          `${rollouts}/web`,
          { contentType: jsonMerge, body: { spec: { mode: 'blue-green' } } },
          { expectStatus: [422] },
        ),
      ],
    },
  ],
};
