/**
 * Webhook backends in the browser: a rules backend declared in the
 * Webhooks view from a sample and wired to pods with one button denies a
 * pod create with its message; a JavaScript backend runs in a Worker of
 * the open page (the service worker cannot start one) — its denial reaches
 * the client, and one that loops forever is killed at the timeout and its
 * failure policy applies. The view passes axe.
 */

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { api, apiOk, openSandbox } from './support/sandbox';
import { shot } from './support/ui';

// Boots the in-browser server and waits for configurations to reach its informer.
test.describe.configure({ timeout: 90_000 });

const G = '/apis/admissionregistration.orch.io/v1';

function pod(name: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
  };
}

/** Creates pods (dry run) until the answer is no longer a plain success: the configuration is in effect. */
async function createPodOnceWired(page: Page, name: string) {
  let answer = await api(page, 'POST', '/api/v1/namespaces/default/pods?dryRun=All', pod(name));
  await expect
    .poll(async () => {
      answer = await api(page, 'POST', '/api/v1/namespaces/default/pods?dryRun=All', pod(name));
      return answer.status;
    })
    .not.toBe(201);
  return answer;
}

test('a rules backend declared in the UI and wired to pods denies a pod create', async ({
  page,
}, testInfo) => {
  await openSandbox(page, '/#/webhooks');
  const view = page.locator('.view:not([hidden]) main');
  await expect(view.getByRole('heading', { name: 'Webhook backends' })).toBeVisible();

  await view
    .getByLabel('Start from a sample')
    .selectOption({ label: 'Deny pods without a team label (rules)' });
  await expect(view.getByLabel('Backend (YAML or JSON)')).toHaveValue(/name: require-team/);
  await view.getByRole('button', { name: 'Save backend' }).click();
  await expect(view.getByRole('status').filter({ hasText: 'Saved require-team.' })).toBeVisible();
  await expect(
    view.getByRole('table').getByRole('cell', { name: 'require-team', exact: true }),
  ).toBeVisible();

  // A backend that does not compile is refused with the CEL error.
  await view
    .getByLabel('Backend (YAML or JSON)')
    .fill('name: broken\nkind: rules\nrules:\n- when: "object."\n  allowed: false\n');
  await view.getByRole('button', { name: 'Save backend' }).click();
  await expect(view.getByText(/rules\[0\]\.when/).first()).toBeVisible();

  const wire = view.getByRole('region', { name: 'Wire it up' });
  await expect(wire.getByLabel('Backend')).toHaveValue('require-team');
  await wire.getByRole('button', { name: 'Wire it up' }).click();
  await expect(wire.getByRole('status')).toContainText('ValidatingWebhookConfiguration backend-require-team');

  const denied = await createPodOnceWired(page, 'unlabeled');
  expect(denied.status).toBe(403);
  expect((denied.body as { message: string }).message).toBe(
    'admission webhook "require-team.webhooks.sandbox.invalid" denied the request: pods need a team label',
  );
  await shot(page, testInfo, 'webhook-backends');

  const axe = await new AxeBuilder({ page }).include('.view:not([hidden]) main').analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
});

test('JavaScript backends run in a Worker of the open page, killed at the timeout', async ({ page }) => {
  await openSandbox(page, '/#/webhooks');
  await apiOk(page, 'PUT', '/sandbox/v1/webhook-backends/js-deny', {
    kind: 'javascript',
    source:
      '(review) => ({ allowed: false, status: { code: 403, message: "no " + review.request.object.metadata.name } })',
  });
  await apiOk(page, 'PUT', '/sandbox/v1/webhook-backends/js-loop', {
    kind: 'javascript',
    source: '() => { for (;;) {} }',
  });
  const webhook = (name: string, failurePolicy: string, namespace: string) => ({
    name: `${name}.${failurePolicy.toLowerCase()}.test.io`,
    clientConfig: { url: `https://${name}.webhooks.sandbox.invalid/` },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    namespaceSelector: { matchLabels: { 'orch.io/metadata.name': namespace } },
    failurePolicy,
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 1,
  });
  await apiOk(page, 'POST', `${G}/validatingwebhookconfigurations`, {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'js-backends' },
    webhooks: [webhook('js-deny', 'Fail', 'default'), webhook('js-loop', 'Fail', 'orch-public')],
  });

  const denied = await createPodOnceWired(page, 'web');
  expect(denied.status).toBe(403);
  expect((denied.body as { message: string }).message).toBe(
    'admission webhook "js-deny.fail.test.io" denied the request: no web',
  );

  const looped = await api(page, 'POST', '/api/v1/namespaces/orch-public/pods?dryRun=All', pod('loop'));
  expect(looped.status).toBe(500);
  expect((looped.body as { message: string }).message).toBe(
    'Internal error occurred: failed calling webhook "js-loop.fail.test.io": failed to call webhook: Post "https://js-loop.webhooks.sandbox.invalid/?timeout=1s": context deadline exceeded',
  );
});
