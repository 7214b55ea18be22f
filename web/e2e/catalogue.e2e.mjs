// End-to-end test of a catalogue that can be corrected, departments that
// can be deleted and a draft its customer withdraws: admin edits a bought
// package in a dialog opened with its values, retires it after a yes (the
// customer is no longer offered it, the bought row keeps its terms), and
// deletes a never-bought one; a department with customers is refused with
// the translated reason, an unused one is deleted; the customer withdraws a
// draft after a yes and it leaves the drafts. Each step at 1366×900; the
// lists also at 390×844 (every action inside the screen).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { apiCall, byTestId, RESULTS_DIR, url } from './helpers.mjs';
import { caseWorld } from './caseWorld.mjs';

/** Every button of the element carrying `testId` lies inside the viewport's width. */
async function actionsInView(page, testId) {
  const outside = await page.locator(byTestId(testId)).evaluateAll((els) =>
    els.flatMap((el) =>
      [...el.querySelectorAll('button')].filter((b) => {
        const r = b.getBoundingClientRect();
        return r.width > 0 && (r.left < 0 || r.right > window.innerWidth + 1);
      }).map((b) => b.textContent),
    ),
  );
  assert.deepEqual(outside, [], `${testId}: actions outside the screen`);
}

/** The yes of the confirmation open now (an earlier one may still be fading out). */
async function confirmYes(page, testId) {
  await page.locator(`.ant-popover:not(.ant-popover-hidden) ${byTestId(testId)}`).last().click();
}

describe('catalogue, departments and withdrawing a draft', { timeout: 180_000 }, () => {
  test('admin edits, retires and deletes packages; departments; the customer withdraws a draft', async () => {
    const w = await caseWorld();
    const { cp, ap, uid } = w;
    try {
      // Two packages: one the customer buys, one made by mistake.
      const stamp = Date.now();
      const made = await apiCall(ap, 'POST', '/packages/', { name: `E2E Bas ${stamp}`, hours: '4', price: '4000', duration_days: 30, public: true });
      assert.equal(made.status, 201);
      const pkg = made.body;
      const wrong = (await apiCall(ap, 'POST', '/packages/', { name: `E2E Fel ${stamp}`, hours: '1', price: '1', duration_days: 1, public: false })).body;
      // The customer buys the first (an active hours row exists, so this one waits in advance).
      const bought = await apiCall(cp, 'POST', '/subscription/packages/', { package_id: pkg.id });
      assert.equal(bought.status, 201, JSON.stringify(bought.body));

      await ap.goto(url('/admin/settings/packages/'));
      await ap.locator(byTestId(`package-row-${pkg.id}`)).waitFor();
      assert.match(await ap.locator(byTestId(`package-row-${pkg.id}`)).innerText(), /Köpt/);
      assert.equal(await ap.locator(byTestId(`offer-delete-${pkg.id}`)).isDisabled(), true);

      // Edit: the dialog opens with the stored values; new terms apply to new purchases only.
      await ap.locator(byTestId(`offer-edit-${pkg.id}`)).click();
      await ap.locator(byTestId('offer-edit-form')).waitFor();
      assert.equal(await ap.locator(`${byTestId('offer-edit-form')} ${byTestId('package-name')}`).inputValue(), pkg.name);
      assert.equal(await ap.locator(`${byTestId('offer-edit-form')} ${byTestId('package-price')}`).inputValue(), '4000');
      await ap.locator(`${byTestId('offer-edit-form')} ${byTestId('package-price')}`).fill('4 500,50');
      const put = ap.waitForResponse((r) => r.url().endsWith(`/api/packages/${pkg.id}/`) && r.request().method() === 'PUT');
      await ap.locator(byTestId('offer-edit-save')).click();
      assert.equal((await put).status(), 200);
      await ap.locator(byTestId(`package-row-${pkg.id}`)).filter({ hasText: '4 500,50' }).waitFor();
      const rows = (await apiCall(ap, 'GET', `/customer/${uid}/`)).body.purchased_services;
      assert.equal(rows.find((r) => r.id === bought.body.id).price, 4000, 'the bought row keeps its price');

      // Retire after a yes: the customer is no longer offered it.
      await ap.locator(byTestId(`offer-retire-${pkg.id}`)).click();
      await ap.getByText(`Dra in paketet ${pkg.name}?`).waitFor();
      const retired = ap.waitForResponse((r) => r.url().endsWith(`/api/packages/${pkg.id}/retire/`));
      await confirmYes(ap, 'offer-confirm-yes');
      assert.equal((await retired).status(), 200);
      await ap.locator(`${byTestId(`package-row-${pkg.id}`)} ${byTestId('offer-retired')}`).waitFor();
      const offered = (await apiCall(cp, 'GET', '/packages/')).body;
      assert.ok(!offered.some((p) => p.id === pkg.id), 'a retired package is offered to nobody');

      // The never-bought one is deleted after a yes.
      await ap.locator(byTestId(`offer-delete-${wrong.id}`)).click();
      await ap.getByText(`Ta bort ${wrong.name} för gott?`).waitFor();
      const gone = ap.waitForResponse((r) => r.url().endsWith(`/api/packages/${wrong.id}/`) && r.request().method() === 'DELETE');
      await confirmYes(ap, 'offer-confirm-yes');
      assert.equal((await gone).status(), 200);
      await ap.locator(byTestId(`package-row-${wrong.id}`)).waitFor({ state: 'detached' });
      await ap.screenshot({ path: join(RESULTS_DIR, 'catalogue-packages-1366.png'), fullPage: true });

      // Departments: one with a customer is refused, with the reason; an unused one goes.
      const used = (await apiCall(ap, 'POST', '/customer/department/', { name: `E2E Avd ${stamp}`, description: '' })).body;
      assert.equal((await apiCall(ap, 'POST', '/customer/customer-department/', { customer_uid: uid, department_id: used.id })).status, 200);
      const unused = (await apiCall(ap, 'POST', '/customer/department/', { name: `E2E Tom ${stamp}`, description: '' })).body;
      await ap.goto(url('/admin/customer/department/'));
      await ap.locator(byTestId(`department-delete-${used.id}`)).click();
      await ap.getByText(`Ta bort avdelningen E2E Avd ${stamp}?`).waitFor();
      await confirmYes(ap, 'department-delete-yes');
      await ap.getByText('Avdelningen har kopplade kunder och kan inte tas bort').waitFor();
      assert.equal(await ap.locator(byTestId(`department-row-${used.id}`)).count(), 1);
      await ap.locator(byTestId(`department-delete-${unused.id}`)).click();
      await confirmYes(ap, 'department-delete-yes');
      await ap.locator(byTestId(`department-row-${unused.id}`)).waitFor({ state: 'detached' });

      // The lists keep every action on a phone.
      await ap.setViewportSize({ width: 390, height: 844 });
      await ap.goto(url('/admin/settings/packages/'));
      await ap.locator(byTestId(`offer-actions-${pkg.id}`)).waitFor();
      await actionsInView(ap, `offer-actions-${pkg.id}`);
      await ap.screenshot({ path: join(RESULTS_DIR, 'catalogue-packages-390.png'), fullPage: true });
      await ap.goto(url('/admin/customer/department/'));
      await ap.locator(byTestId(`department-delete-${used.id}`)).waitFor();
      await actionsInView(ap, 'departments-page');

      // The customer withdraws a draft after a yes; it leaves the drafts.
      const draft = await apiCall(cp, 'POST', '/case/create/by/customer/', {
        subject: `E2E utkast ${stamp}`,
        description: 'Tvist om hyra',
        type: w.caseType,
        address: { address_1: 'Storgatan 1', city: 'Stockholm', country: 'SE', post_code: '11122' },
      });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      await cp.goto(url(`/user/cases/details/${draft.body.uid}`));
      await cp.locator(byTestId('case-action-withdraw')).click();
      await cp.locator('.ant-modal-confirm-title', { hasText: 'Dra tillbaka utkastet? Det skickas då inte till juristerna' }).waitFor();
      const withdrawn = cp.waitForResponse((r) => r.url().endsWith(`/api/case/status/${draft.body.uid}/`));
      await cp.locator(byTestId('case-action-confirm')).click();
      assert.equal((await withdrawn).status(), 200);
      await cp.getByText('Tillbakadraget').first().waitFor();
      assert.equal(await cp.locator(byTestId('case-action-withdraw')).count(), 0);
      const drafts = (await apiCall(cp, 'GET', '/case/list/?status=draft')).body.results;
      assert.ok(!drafts.some((c) => c.uid === draft.body.uid), 'a withdrawn draft is not among the drafts');

      // Clean up what other tests read: the customer's department link stays harmless; the retired package stays retired.
    } catch (err) {
      await ap.screenshot({ path: join(RESULTS_DIR, 'catalogue-failure.png'), fullPage: true }).catch(() => undefined);
      await cp.screenshot({ path: join(RESULTS_DIR, 'catalogue-customer-failure.png'), fullPage: true }).catch(() => undefined);
      throw err;
    } finally {
      await w.close();
    }
  });
});
