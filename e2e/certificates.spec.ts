/**
 * Certificate signing and service account tokens in the browser, end to
 * end: as admin, a key pair and a PKCS#10 request for `carol` made in the
 * page and submitted for the client signer; alice may not approve it (403,
 * explained); admin approves it, the signer issues it, the page decodes it
 * and checks its chain to the cluster CA, and it becomes an identity the
 * server sees as carol. A node-serving request without SANs shows the
 * broken rule while it is typed and, submitted anyway and approved, fails
 * with that rule. A service account's token is minted, decoded and used.
 * Axe finds no serious problem in either section.
 */

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiOk, openSandbox, uniqueName } from './support/sandbox';
import { shot } from './support/ui';

// Key generation, the signer and several identity switches: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 90_000 });

async function openSection(page: Page, section: 'certificates' | 'tokens'): Promise<void> {
  await openSandbox(page, `/#/identity?section=${section}`);
  await expect(page.locator('.view:not([hidden]) main')).toBeVisible();
  await expect(page.locator('.view:not([hidden]) .view-loading')).toHaveCount(0);
}

/** Opens the header's switcher and acts as the identity whose radio `label` names. */
async function actAs(page: Page, label: RegExp): Promise<void> {
  await page.getByRole('button', { name: /^Acting as .*Change identity$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose the identity the UI acts as' });
  await dialog.getByRole('radio', { name: label }).check();
  await dialog.getByRole('button', { name: 'Act as this identity' }).click();
  await expect(dialog).toHaveCount(0);
}

function requestForm(page: Page): Locator {
  return page.getByRole('form', { name: 'New certificate request' });
}

/** Scrolls the view so that `target` starts at the top (the README's screenshots show it whole). */
async function scrollToTop(target: Locator): Promise<void> {
  await target.evaluate((el) => {
    (el as unknown as { scrollIntoView(o: { block: string }): void }).scrollIntoView({ block: 'start' });
    // Only the view scrolls: keep the header in the picture.
    (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0);
  });
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('.view:not([hidden]) main').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('a CSR for carol: alice is refused, admin approves, the signer issues it, and the page acts as carol', async ({
  page,
}, testInfo) => {
  await openSection(page, 'certificates');
  const form = requestForm(page);
  const name = uniqueName('carol');
  await form.getByLabel('User (CN)').fill('carol');
  await form.getByLabel('Groups (O)').fill('developers');
  await form.getByLabel('Request name').fill(name);
  await expect(form.getByRole('combobox', { name: 'Signer' })).toHaveValue(/\/(kube-)?apiserver-client$/);

  // The signer's rules follow the input: without client auth the signer would fail it, and says so now.
  await form.getByRole('checkbox', { name: 'client auth' }).uncheck();
  await expect(form.getByTestId('expected-refusal')).toHaveText(
    'missing required usage for client certificate: client auth',
  );
  await form.getByRole('checkbox', { name: 'client auth' }).check();
  await expect(form.getByText('Meets every rule')).toBeVisible();
  await form.getByRole('button', { name: 'Generate key and submit' }).click();

  const detail = page.locator(`[data-csr="${name}"]`);
  await expect(detail.getByTestId('csr-state')).toHaveText('Now Pending');
  await expect(detail).toContainText('O=developers, CN=carol');
  await expect(page.getByRole('row', { name: new RegExp(`^${name} .* Pending`) })).toBeVisible();

  // Alice may not approve: the 403 names her and the missing permission.
  await actAs(page, /^alice/);
  await detail.getByRole('button', { name: 'Approve as alice' }).click();
  const refused = detail.getByRole('alert').filter({ hasText: 'The decision was refused' });
  await expect(refused).toContainText(
    'User "alice" cannot update resource "certificatesigningrequests/approval"',
  );
  await expect(refused.locator('[data-access-explain="authorization"]')).toContainText('The server saw');
  await scrollToTop(detail.locator('.csr-actions'));
  await shot(page, testInfo, 'csr-approve-403');

  await actAs(page, /^admin token/);
  await detail.getByRole('button', { name: 'Approve as admin' }).click();
  await expect(detail.getByTestId('csr-state')).toHaveText('Now Issued');
  const facts = detail.getByTestId('certificate-facts');
  await expect(facts).toContainText('user carol, groups developers');
  await expect(facts).toContainText('client auth');
  await expect(detail.getByTestId('certificate-chain')).toContainText('signed by the cluster CA');
  await expect(detail.locator('[data-node="issued"].is-current')).toHaveCount(1);
  await scrollToTop(detail);
  await shot(page, testInfo, 'csr-issued');
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    expect(await seriousViolations(page), `${theme} theme`).toEqual([]);
  }

  await detail.getByRole('button', { name: 'Use as identity' }).click();
  await expect(
    page.getByRole('button', { name: /^Acting as cert:carol \(client certificate\)/ }),
  ).toBeVisible();
  // The switch is confirmed, with what carol may do, even though the request list is now refused to her.
  const now = page.getByRole('status', { name: 'Now acting as' });
  await expect(now).toContainText('You now act as cert:carol');
  await expect(now).toContainText('the server sees user carol in groups developers, system:authenticated');
  await expect(now).toContainText(/In namespace default it may: .*verbs \[/);
  await detail.getByText('kubectl on the Node host').click();
  await expect(detail.getByLabel('kubeconfig user entry')).toContainText('client-certificate-data:');
  // Long PEM and base64 lines wrap: nothing scrolls sideways at 1280×720.
  expect(
    await page.evaluate(() => {
      const root = (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; clientWidth: number } };
        }
      ).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    }),
  ).toBeLessThanOrEqual(0);

  // Who am I: the page expects carol, and the server, refusing carol a list, names her itself.
  await page.getByRole('link', { name: 'Who am I · What can I do' }).click();
  const main = page.getByRole('main');
  await expect(main.getByTestId('acting-as')).toContainText('cert:carol, sending a client certificate');
  await expect(
    main.locator('[data-testid="expected-user"], [data-testid="server-user"]').first(),
  ).toContainText('carol in groups developers, system:authenticated');
  await page.getByRole('link', { name: 'Explorer', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Listing failed' }).first()).toContainText(
    'User "carol" cannot list resource',
  );

  // Back in the section, the request is still the one shown (sections stay mounted while hidden).
  await page.getByRole('link', { name: 'Identity', exact: true }).click();
  await page.getByRole('link', { name: 'Certificate signing' }).click();
  await expect(detail.getByTestId('csr-state')).toHaveText('Now Issued');

  // The identity is offered by the switcher from now on.
  await page.getByRole('button', { name: /^Acting as .*Change identity$/ }).click();
  await expect(page.getByRole('radio', { name: /^cert:carol certificate · carol/ })).toBeChecked();
});

test('a node-serving request without SANs shows the broken rule, and the signer fails it with that rule', async ({
  page,
}, testInfo) => {
  await openSection(page, 'certificates');
  const form = requestForm(page);
  const name = uniqueName('node-serving');
  const signer = form.getByRole('combobox', { name: 'Signer' });
  const serving = await signer
    .locator('option', { hasText: /(node-agent|kubelet)-serving/ })
    .getAttribute('value');
  await signer.selectOption(serving ?? '');
  await form.getByLabel('User (CN)').fill('system:node:n1');
  await form.getByLabel('Groups (O)').fill('system:nodes');
  await form.getByLabel('Request name').fill(name);
  await expect(form.getByTestId('expected-refusal')).toHaveText('DNS or IP subjectAltName is required');
  await expect(page.getByRole('button', { name: /^Acting as admin/ })).toBeVisible();
  await expect(page.getByText('Listing…')).toHaveCount(0);
  await form.getByLabel('Request name').blur();
  await shot(page, testInfo, 'csr-rules');
  await form.getByRole('button', { name: 'Submit anyway (the signer will fail it)' }).click();

  const detail = page.locator(`[data-csr="${name}"]`);
  await expect(detail.getByTestId('csr-state')).toHaveText('Now Pending');
  await detail.getByRole('button', { name: 'Approve as admin' }).click();
  await expect(detail.getByTestId('csr-state')).toHaveText('Now Failed');
  const failed = detail.getByTestId('csr-failed');
  await expect(failed).toContainText('SignerValidationFailure');
  await expect(failed).toContainText('DNS or IP subjectAltName is required');
  await expect(failed).toContainText('At least one DNS or IP subjectAltName');
  await scrollToTop(detail);
  await shot(page, testInfo, 'csr-failed');
  expect(await seriousViolations(page)).toEqual([]);
});

test("a service account's token: minted, decoded, and used as an identity", async ({ page }, testInfo) => {
  await openSection(page, 'tokens');
  const form = page.getByRole('form', { name: 'Mint a service account token' });
  // The service-account controller makes the `default` account of each namespace soon after the start.
  await expect(form.getByLabel('Service account').locator('option:checked')).toHaveText('default', {
    timeout: 30_000,
  });
  // A pod to bind the token to: the token names it, and stops working once it is deleted.
  const pod = uniqueName('web');
  await apiOk(page, 'POST', '/api/v1/namespaces/default/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: pod },
    spec: { containers: [{ name: 'web', image: 'nginx' }] },
  });
  await form.getByLabel('Bound to pod').selectOption(pod);
  await form.getByLabel('Lifetime (expirationSeconds)').fill('1200');
  await form.getByRole('button', { name: 'Mint token' }).click();
  const details = page.getByTestId('token-details');
  await expect(details).toContainText('Token for system:serviceaccount:default:default');
  await expect(details.getByLabel('JWT claims')).toContainText(
    '"sub": "system:serviceaccount:default:default"',
  );
  await expect(details).toContainText('(20 min)');
  await expect(details).toContainText(`pod ${pod} (invalid once it is deleted)`);
  await expect(details.getByLabel('JWT claims')).toContainText(`"name": "${pod}"`);
  await shot(page, testInfo, 'sa-token');
  expect(await seriousViolations(page)).toEqual([]);

  await details.getByRole('button', { name: 'Use as identity' }).click();
  await expect(
    page.getByRole('button', { name: /^Acting as sa:default\/default \(bearer token\)/ }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Explorer', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Listing failed' }).first()).toContainText(
    'User "system:serviceaccount:default:default" cannot list resource',
  );
});
