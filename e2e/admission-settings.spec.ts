/**
 * Admission and audit in the workshop settings: enabling AlwaysDeny from
 * the plugin list makes the next write fail with the plugin's message, a
 * bad audit policy is refused with the loader's message, and the live
 * audit log lists the requests the policy records.
 */

import { expect, test } from '@playwright/test';
import { api, uniqueName } from './support/sandbox';
import { openView, shot } from './support/ui';

test('plugins switched on and off, the audit policy and the live audit log', async ({ page }, testInfo) => {
  await openView(page, 'workshop');
  const card = page.getByRole('region', { name: 'Admission and audit' });
  const deny = card.getByRole('checkbox', { name: 'AlwaysDeny' });
  await expect(deny).not.toBeChecked();
  await expect(card.getByRole('checkbox', { name: /^NamespaceLifecycle/ })).toBeChecked();
  await deny.check();
  await expect(card.getByText('AlwaysDeny enabled.')).toBeVisible();

  const name = uniqueName('denied');
  const refused = await api(page, 'POST', '/api/v1/namespaces/default/configmaps', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
  });
  expect(refused.status).toBe(403);
  expect(JSON.stringify(refused.body)).toContain('admission control is denying all modifications');

  await card.getByRole('button', { name: 'Default plugins' }).click();
  await expect(card.getByText('Back to the default plugins.')).toBeVisible();
  await expect(deny).not.toBeChecked();

  // A policy the loader refuses changes nothing and says why.
  const policy = card.getByRole('textbox', { name: /Policy/ });
  await policy.fill('kind: Policy');
  await card.getByRole('button', { name: 'Save audit policy' }).click();
  await expect(card.getByText(/loading audit policy/)).toBeVisible();

  // The default policy records every request at Metadata: the refused create is in the live log.
  const log = page.getByRole('region', { name: 'Audit log' });
  await expect(log.getByText(new RegExp(`configmaps.*→ 403`)).first()).toBeVisible();
  await shot(page, testInfo, 'workshop-admission-audit');
});
