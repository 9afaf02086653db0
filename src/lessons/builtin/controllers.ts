/**
 * Lesson 12: controllers — a Deployment makes a ReplicaSet, which makes
 * Pods, each owned by the one above; generation against
 * status.observedGeneration; scaling through the scale subresource; a
 * rollout to a new ReplicaSet and a rollback that reuses the old one; the
 * cascade when the Deployment goes. The sandbox runs no nodes yet, so its
 * Pods may stay Pending: every check holds whether they run or not (they
 * exist, and who owns them), never that they are Running.
 */

import type { LessonDocument } from '../format';
import { check, consoleLink, jsonPatch, request, terminalLink } from './common';

const ns = 'learn-controllers';
const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`;
const web = `${deployments}/web`;
const replicaSets = { apiVersion: 'apps/v1', resource: 'replicasets', namespace: ns };
const pods = { apiVersion: 'v1', resource: 'pods', namespace: ns };
const deployment = { apiVersion: 'apps/v1', resource: 'deployments', namespace: ns, name: 'web' };
const revision = 'deployment.orch.io/revision';

/**
 * CEL: `x` is controlled by a `kind` whose name satisfies `name` (NAME stands for it). Controllers write a
 * single owner reference, so the first is read: a comprehension over every item's references inside the one
 * over the items would exceed a check's cost budget.
 */
const controlledBy = (x: string, kind: string, name: string) => {
  const o = `${x}.metadata.ownerReferences[0]`;
  return `has(${x}.metadata.ownerReferences) && size(${x}.metadata.ownerReferences) > 0 && ${o}.kind == '${kind}' && ${name.replace(/\bNAME\b/g, `${o}.name`)} && has(${o}.controller) && ${o}.controller`;
};
const ofWeb = (x: string) => controlledBy(x, 'Deployment', "NAME == 'web'");
const ofWebReplicaSet = (x: string) => controlledBy(x, 'ReplicaSet', "NAME.startsWith('web-')");
const live = (x: string) => `!has(${x}.metadata.deletionTimestamp)`;
const imageOf = (x: string) => `${x}.spec.template.spec.containers[0].image`;

const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.25
`;

const setImage = (image: string) =>
  `kubectl patch deployment web -n ${ns} --type=json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"${image}"}]'`;

export const controllers: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'controllers',
  title: 'Controllers: Deployments, ReplicaSets and Pods',
  part: 'Following change',
  minutes: 6,
  goal: 'Follow a Deployment down to its Pods by owner references, scale it, roll it out to a new ReplicaSet and back, and read generation against observedGeneration.',
  sections: [
    {
      text: 'The API server only stores objects. Controllers — programs that watch the API like any client — make the stored intent true: the Deployment controller keeps one ReplicaSet per Pod template, the ReplicaSet controller keeps the right number of Pods. Each object they create names its maker in `metadata.ownerReferences` (with `controller: true`), so the garbage collector removes the whole chain when the top goes.\n\nThis sandbox runs the controllers inside the tab, but no nodes: until simulated nodes arrive a Pod stays `Pending` (nothing schedules or runs it). Everything this lesson checks — which objects exist and who owns them — holds either way.',
      spec: ['core-states-and-transitions', 'core-versioning'],
    },
    {
      title: 'generation and observedGeneration',
      text: 'The server adds one to `metadata.generation` each time an object’s `spec` changes (metadata and status do not count). A controller writes the generation it last acted on to `status.observedGeneration`. When the two are equal, the `status` describes the current spec; while observedGeneration lags, the controller has not caught up yet.',
    },
  ],
  start: { namespaces: [ns] },
  steps: [
    {
      id: 'create',
      title: 'A Deployment, its ReplicaSet and its Pods',
      text: `Create a Deployment \`web\` in \`${ns}\` with 2 replicas of \`nginx:1.25\` — in the Editor, or in the Terminal with \`kubectl create deployment\`. Then look in the Explorer: a ReplicaSet \`web-<hash>\` appeared, and Pods \`web-<hash>-<suffix>\`. Open one Pod: its owner chain goes up through the ReplicaSet to the Deployment.`,
      open: [
        { view: 'editor', label: 'Editor with the Deployment', params: { text: manifest } },
        terminalLink(`kubectl create deployment web --image=nginx:1.25 --replicas=2 -n ${ns}`),
        { view: 'explorer', label: `Explorer on the Pods of ${ns}`, params: { kind: 'v1/pods', ns } },
      ],
      hints: [
        'The selector must match the template’s labels (`app: web`), or the server refuses the Deployment with a 422.',
        '`kubectl get replicasets,pods -n learn-controllers` lists both; `-o yaml` shows their `ownerReferences`.',
      ],
      checks: [
        check('Deployment web exists', { object: deployment }, 'object != null'),
        check('A ReplicaSet is controlled by web', { list: replicaSets }, `items.exists(rs, ${ofWeb('rs')})`),
        check(
          'Two Pods are controlled by web’s ReplicaSet (Pending or Running)',
          { list: pods },
          `items.filter(p, ${live('p')} && ${ofWebReplicaSet('p')}).size() == 2`,
        ),
      ],
      showMe: [
        request('POST', deployments, {
          body: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: 'web' },
            spec: {
              replicas: 2,
              selector: { matchLabels: { app: 'web' } },
              template: {
                metadata: { labels: { app: 'web' } },
                spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] },
              },
            },
          },
        }),
      ],
    },
    {
      id: 'scale',
      title: 'Scale it, and watch the generation',
      text: `Scale \`web\` to 3 replicas. The \`scale\` subresource (\`${web}/scale\`) is the narrow way that autoscalers and \`kubectl scale\` use; editing \`spec.replicas\` works too. Read the Deployment before and after: \`metadata.generation\` went up by one because the spec changed, and \`status.observedGeneration\` follows once the controller has seen it. The ReplicaSet was scaled, not replaced.`,
      open: [
        terminalLink(`kubectl scale deployment web --replicas=3 -n ${ns}`),
        consoleLink('GET', `${web}/scale`),
        consoleLink('GET', web),
      ],
      hints: [
        'A merge patch `{"spec":{"replicas":3}}` sent to `…/deployments/web/scale` does it in one request.',
      ],
      checks: [
        check(
          'web asks for 3 replicas, one generation later',
          { object: deployment },
          'object != null && object.spec.replicas == 3 && object.metadata.generation >= 2',
        ),
        check(
          'The controller caught up: status.observedGeneration == metadata.generation',
          { object: deployment },
          'object != null && has(object.status) && has(object.status.observedGeneration) && object.status.observedGeneration == object.metadata.generation',
        ),
        check(
          'Still one ReplicaSet, now asking for 3',
          { list: replicaSets },
          `items.filter(rs, ${ofWeb('rs')}).size() == 1 && items.exists(rs, ${ofWeb('rs')} && rs.spec.replicas == 3)`,
        ),
        check(
          'Three Pods are controlled by it',
          { list: pods },
          `items.filter(p, ${live('p')} && ${ofWebReplicaSet('p')}).size() == 3`,
        ),
      ],
      showMe: [
        request('PATCH', `${web}/scale`, {
          contentType: 'application/merge-patch+json',
          body: { spec: { replicas: 3 } },
        }),
      ],
    },
    {
      id: 'rollout',
      title: 'A rollout makes a new ReplicaSet',
      text: `Change the Pod template's image to \`nginx:1.26\`. The template hashes differently, so the Deployment controller makes a second ReplicaSet for it and moves replicas over from the first, a few at a time (\`maxSurge\`, \`maxUnavailable\`); \`${revision}\` on the Deployment is now \`2\`. Without nodes the new Pods never become available, so the rollout waits with the old ReplicaSet still up — exactly what a real cluster does when new Pods do not start.`,
      open: [
        terminalLink(setImage('nginx:1.26')),
        { view: 'editor', label: 'Editor with web', params: { path: web } },
        {
          view: 'explorer',
          label: `Explorer on the ReplicaSets of ${ns}`,
          params: { kind: 'apps/v1/replicasets', ns },
        },
      ],
      hints: [
        'Only a change to `spec.template` rolls out; scaling does not.',
        'A strategic merge patch names the container: `{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.26"}]}}}}` (kubectl create deployment names it after the image: `nginx`).',
      ],
      checks: [
        check(
          `web is at revision 2 with nginx:1.26`,
          { object: deployment },
          `object != null && has(object.metadata.annotations) && object.metadata.annotations['${revision}'] == '2' && ${imageOf('object')} == 'nginx:1.26'`,
        ),
        check(
          'Two ReplicaSets are controlled by web, one of them for nginx:1.26',
          { list: replicaSets },
          `items.filter(rs, ${ofWeb('rs')}).size() == 2 && items.exists(rs, ${ofWeb('rs')} && ${imageOf('rs')} == 'nginx:1.26')`,
        ),
        check(
          'Pods of nginx:1.26 exist',
          { list: pods },
          `items.exists(p, ${live('p')} && ${ofWebReplicaSet('p')} && p.spec.containers[0].image == 'nginx:1.26')`,
        ),
      ],
      showMe: [
        request('PATCH', web, {
          contentType: jsonPatch,
          body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.26' }],
        }),
      ],
    },
    {
      id: 'rollback',
      title: 'Roll back: the old ReplicaSet comes back',
      text: `Put the image back to \`nginx:1.25\`. A rollback is a rollout to an earlier template: the controller finds the ReplicaSet that already has it, gives it revision \`3\` and scales it up again — no third ReplicaSet. (\`kubectl rollout undo\` does the same: it copies the previous ReplicaSet's template into the Deployment.)`,
      open: [
        terminalLink(setImage('nginx:1.25')),
        { view: 'editor', label: 'Editor with web', params: { path: web } },
      ],
      checks: [
        check(
          'web is at revision 3 with nginx:1.25',
          { object: deployment },
          `object != null && has(object.metadata.annotations) && object.metadata.annotations['${revision}'] == '3' && ${imageOf('object')} == 'nginx:1.25'`,
        ),
        check(
          'Still two ReplicaSets; the nginx:1.25 one is revision 3',
          { list: replicaSets },
          `items.filter(rs, ${ofWeb('rs')}).size() == 2 && items.exists(rs, ${ofWeb('rs')} && ${imageOf('rs')} == 'nginx:1.25' && has(rs.metadata.annotations) && rs.metadata.annotations['${revision}'] == '3')`,
        ),
      ],
      showMe: [
        request('PATCH', web, {
          contentType: jsonPatch,
          body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.25' }],
        }),
      ],
    },
    {
      id: 'cascade',
      title: 'Delete the Deployment, and its chain goes',
      text: 'Delete `web`. The garbage collector follows the owner references down: both ReplicaSets go, then their Pods. (With `propagationPolicy: Orphan` they would stay, their owner references removed.)',
      open: [terminalLink(`kubectl delete deployment web -n ${ns}`), consoleLink('DELETE', web)],
      checks: [
        check('web is gone', { object: deployment }, 'object == null'),
        check('No ReplicaSet of web is left', { list: replicaSets }, `!items.exists(rs, ${ofWeb('rs')})`),
        check(
          'No Pod of web is left (or they are terminating)',
          { list: pods },
          `!items.exists(p, ${live('p')} && ${ofWebReplicaSet('p')})`,
        ),
      ],
      showMe: [request('DELETE', web)],
    },
  ],
};
