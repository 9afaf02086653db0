/**
 * Sample backends to start from: a validating rule (pods need a `team`
 * label), a mutating rule (add the label by JSON patch, its value from
 * CEL), and a JavaScript function doing what a webhook server would.
 */

import type { WebhookBackend } from './backend-api';

export interface Sample {
  id: string;
  label: string;
  /** What to wire it as. */
  wireAs: 'validating' | 'mutating';
  backend: WebhookBackend;
}

export const samples: Sample[] = [
  {
    id: 'require-team',
    label: 'Deny pods without a team label (rules)',
    wireAs: 'validating',
    backend: {
      name: 'require-team',
      kind: 'rules',
      rules: [
        {
          when: "!has(object.metadata.labels) || !('team' in object.metadata.labels)",
          allowed: false,
          code: 403,
          message: 'pods need a team label',
        },
      ],
    },
  },
  {
    id: 'default-team',
    label: 'Add a team label by JSON patch (rules)',
    wireAs: 'mutating',
    backend: {
      name: 'default-team',
      kind: 'rules',
      rules: [
        {
          when: '!has(object.metadata.labels)',
          allowed: true,
          patch: [{ op: 'add', path: '/metadata/labels', value: { team: { expr: "'unassigned'" } } }],
        },
        {
          when: "!('team' in object.metadata.labels)",
          allowed: true,
          patch: [{ op: 'add', path: '/metadata/labels/team', value: 'unassigned' }],
          warnings: ['no team label: set to "unassigned"'],
        },
      ],
    },
  },
  {
    id: 'image-policy',
    label: 'Only images from registry.example.com (JavaScript)',
    wireAs: 'validating',
    backend: {
      name: 'image-policy',
      kind: 'javascript',
      source: [
        '(review) => {',
        '  const pod = review.request.object;',
        '  const bad = (pod.spec.containers || []).filter((c) => !c.image.startsWith("registry.example.com/"));',
        '  if (bad.length === 0) return { allowed: true };',
        '  return {',
        '    allowed: false,',
        '    status: { code: 403, message: "images must come from registry.example.com: " + bad.map((c) => c.image).join(", ") },',
        '  };',
        '}',
      ].join('\n'),
    },
  },
];
