/** Lesson 13: CustomResourceDefinitions — structural schema, defaults, pruning, status, printer columns. */

import type { LessonDocument } from '../format';
import { check, jsonMerge, request, sent, terminalLink } from './common';

const ns = 'learn-crd';
const group = 'learn.example.com';
const crdName = `gadgets.${group}`;
const gadgets = `/apis/${group}/v1/namespaces/${ns}/gadgets`;

const crd = {
  apiVersion: 'apiextensions.orch.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: crdName },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer' }, color: { type: 'string', default: 'gray' } },
              },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

export const crds: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'crds',
  title: 'Your own kind: CustomResourceDefinitions',
  part: 'Extending the API',
  minutes: 5,
  goal: 'Add a kind to the API with a structural schema, and see its defaults, pruning, status subresource and printer columns at work.',
  sections: [
    {
      text: 'A CustomResourceDefinition adds a resource to a group of your own: once it is Established, `/apis/<group>/<version>/…` serves it like any built-in kind, with watch, patch and apply. Its `openAPIV3Schema` must be structural (every field typed); the server fills `default`s, drops (prunes) fields the schema does not know, and validates the rest.\n\nWith `subresources.status`, the main resource ignores changes to `status` and the `/status` subresource ignores everything else. `additionalPrinterColumns` choose the Table’s columns.',
      spec: ['core-field-validation', 'core-path-shapes'],
    },
  ],
  start: { namespaces: [ns] },
  cleanup: [{ apiVersion: 'apiextensions.orch.io/v1', resource: 'customresourcedefinitions', name: crdName }],
  steps: [
    {
      id: 'define',
      title: 'Define the kind',
      text: `Create the CustomResourceDefinition \`${crdName}\` (the Editor link holds it): kind Gadget, \`spec.size\` an integer, \`spec.color\` a string defaulting to \`gray\`, a status subresource and a Size column. Wait for its Established condition.`,
      open: [
        { view: 'editor', label: 'Editor with the CRD', params: { text: JSON.stringify(crd, null, 2) } },
      ],
      checks: [
        check(
          `${crdName} is Established`,
          {
            object: {
              apiVersion: 'apiextensions.orch.io/v1',
              resource: 'customresourcedefinitions',
              name: crdName,
            },
          },
          "object != null && has(object.status.conditions) && object.status.conditions.exists(c, c.type == 'Established' && c.status == 'True')",
        ),
      ],
      showMe: [request('POST', '/apis/apiextensions.orch.io/v1/customresourcedefinitions', { body: crd })],
    },
    {
      id: 'create',
      title: 'Defaults and pruning',
      text: `Create a Gadget \`g1\` in \`${ns}\` with \`spec.size: 3\` and a field the schema does not have, \`spec.extra: true\`. The stored object has \`color: gray\` and no \`extra\`.`,
      open: [
        {
          view: 'editor',
          label: 'Editor with a Gadget',
          params: {
            text: `apiVersion: ${group}/v1\nkind: Gadget\nmetadata:\n  name: g1\n  namespace: ${ns}\nspec:\n  size: 3\n  extra: true\n`,
          },
        },
      ],
      checks: [
        check(
          'g1 has the default color and no extra field',
          { object: { apiVersion: `${group}/v1`, resource: 'gadgets', namespace: ns, name: 'g1' } },
          "object != null && object.spec.color == 'gray' && !has(object.spec.extra)",
        ),
      ],
      showMe: [
        request('POST', gadgets, {
          body: {
            apiVersion: `${group}/v1`,
            kind: 'Gadget',
            metadata: { name: 'g1' },
            spec: { size: 3, extra: true },
          },
        }),
      ],
    },
    {
      id: 'status',
      title: 'Write the status',
      text: `Set \`status.phase: Ready\` on g1 through its status subresource: \`PATCH ${gadgets}/g1/status\`. (A PATCH of the object itself would ignore status.)`,
      checks: [
        check(
          'g1 is Ready',
          { object: { apiVersion: `${group}/v1`, resource: 'gadgets', namespace: ns, name: 'g1' } },
          "object != null && has(object.status) && object.status.phase == 'Ready'",
        ),
      ],
      showMe: [
        request('PATCH', `${gadgets}/g1/status`, {
          contentType: jsonMerge,
          body: { status: { phase: 'Ready' } },
        }),
      ],
    },
    {
      id: 'columns',
      title: 'Your printer column',
      text: 'List gadgets as a Table (the Explorer does, or the Console with the Table Accept header): the Size column comes from your definition.',
      open: [
        terminalLink('kubectl get gadgets -n learn-crd'),
        { view: 'explorer', label: 'Explorer on gadgets', params: { kind: `${group}/v1/gadgets`, ns } },
      ],
      checks: [
        sent(
          'A Table of gadgets was served',
          "requests.exists(r, r.kind == 'Table' && r.path.contains('/gadgets'))",
        ),
      ],
      showMe: [request('GET', gadgets, { accept: 'application/json;as=Table;g=meta.orch.io;v=v1' })],
    },
  ],
};
