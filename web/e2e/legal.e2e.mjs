// End-to-end test of the rule "when a new version is published, signed-in
// customers are asked to accept it once": admin publishes a new version by
// clicking in its editor (Settings → Terms and privacy); the demo customer
// signing in is asked once (a modal it cannot close), accepts, and is not
// asked again after a reload or the next sign-in; the acceptance is read back
// through the API with its version. Terms in Swedish, then the privacy
// policy in English.
//
// Contacts are not asked: spec §5 puts the agreement to "privacy and
// purchase terms" on the customer (the party of the contract), and a contact
// acts under its customer's agreement (`shared::domain::legal::must_accept`).
// The test signs in as the contact after the publish and sees no question.
//
// Publishing changes what every customer is asked, so shard-cases.mjs runs
// this file last.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, byTestId, chooseLanguage, logout, signIn, url, withPage } from './helpers.mjs';

const menuItem = (id) => `${byTestId('side-menu')} ${byTestId(`menu-item-${id}`)}`;
const stamp = () => `${Date.now()}`;

async function publicText(kind) {
  const res = await fetch(url(`/api/public/${kind}/`));
  assert.equal(res.status, 200);
  return res.json();
}

/** Admin, by clicking: Settings → Terms and privacy, pick the text, add a section in both languages, publish. */
async function publishByClicking(page, { kind, svLine, enLine }) {
  await page.locator(menuItem('settings')).click();
  await page.locator(menuItem('settings-terms')).click();
  await page.waitForURL((u) => u.pathname === '/admin/settings/terms/');
  await page.locator(byTestId('legal-admin-page')).waitFor();
  if (kind === 'privacy') await page.locator('.ant-segmented-item').nth(1).click();
  const sv = page.locator(byTestId('legal-edit-sv'));
  // The editor starts from the chosen kind's current text: typed before it
  // arrived, the words were replaced by it (the page now waits for it).
  await page.locator(`${byTestId('legal-admin-page')} .page-card[aria-busy="false"]`).waitFor();
  assert.ok((await sv.inputValue()).length > 0, 'the current text is in the editor');
  await sv.fill(`${await sv.inputValue()}\n\n## ${svLine}\n`);
  await page.locator(`${byTestId('legal-admin-page')} .ant-tabs-tab`).nth(1).click();
  const en = page.locator(byTestId('legal-edit-en'));
  await en.fill(`${await en.inputValue()}\n\n## ${enLine}\n`);
  const publish = page.waitForResponse((r) => r.url().endsWith('/api/legal/publish/'));
  await page.locator(byTestId('legal-publish')).click();
  await page.locator('.ant-popconfirm .ant-btn-primary').click();
  const res = await publish;
  assert.ok(res.ok(), `publish answered ${res.status()}`);
  return (await res.json()).version;
}

/** Sign in and wait until the app has asked the server what is pending; returns that answer. */
async function signInAndPending(page, email, prefix) {
  const pending = page.waitForResponse((r) => r.url().endsWith('/api/legal/pending/'));
  await signIn(page, email, prefix);
  const body = await (await pending).json();
  await page.locator(byTestId('side-menu')).waitFor();
  return body;
}

async function reloadAndPending(page) {
  const pending = page.waitForResponse((r) => r.url().endsWith('/api/legal/pending/'));
  await page.reload();
  const body = await (await pending).json();
  await page.locator(byTestId('side-menu')).waitFor();
  return body;
}

/** Not asked: the server has nothing pending and no modal shows. */
async function assertNotAsked(page, pendingBody, who) {
  assert.deepEqual(pendingBody, [], `${who}: nothing pending`);
  // Give the (lazy) modal the time it would take to show.
  await page.waitForTimeout(750);
  assert.equal(await page.locator(byTestId('legal-accept')).count(), 0, `${who}: no acceptance question`);
}

async function acceptModal(page, { title, line, version }) {
  const modal = page.locator('.ant-modal').filter({ has: page.locator(byTestId('legal-accept')) });
  await modal.waitFor();
  assert.equal((await modal.locator('.ant-modal-title').textContent()).trim(), title);
  assert.ok((await modal.textContent()).includes(`${version}`), 'the question names the version');
  await page.locator(`${byTestId('legal-acceptance-text')} h2`, { hasText: line }).waitFor();
  // Escape does not close it: the customer accepts or logs out.
  await page.keyboard.press('Escape');
  assert.equal(await page.locator(byTestId('legal-accept')).count(), 1, 'the question cannot be dismissed');
  const accepted = page.waitForResponse((r) => r.url().endsWith('/api/legal/accept/'));
  await page.locator(byTestId('legal-accept')).click();
  assert.equal((await accepted).status(), 200);
  await page.locator(byTestId('legal-accept')).waitFor({ state: 'detached' });
}

async function acceptedVersion(page, kind) {
  const mine = await apiCall(page, 'GET', '/legal/acceptances/');
  assert.equal(mine.status, 200);
  return Math.max(0, ...mine.body.filter((a) => a.kind === kind).map((a) => a.version));
}

describe('a newly published terms version is accepted once', { timeout: 300_000 }, () => {
  for (const round of [
    { kind: 'terms', lang: 'sv', title: 'Nya allmänna villkor' },
    { kind: 'privacy', lang: 'en', title: 'New privacy policy' },
  ]) {
    test(`${round.kind} (${round.lang}): admin publishes; the customer is asked once; the contact is not`, async () => {
      const id = stamp();
      const line = round.lang === 'sv' ? `Ändring ${id}` : `Change ${id}`;
      const before = (await publicText(round.kind)).version;

      let version = 0;
      await withPage(`legal-admin-${round.kind}`, async (page) => {
        await signIn(page, 'admin@example.com', '/admin/');
        if (round.lang === 'en') await chooseLanguage(page, 'en');
        version = await publishByClicking(page, { kind: round.kind, svLine: `Ändring ${id}`, enLine: `Change ${id}` });
        await page.locator('.ant-alert-success').waitFor();
      });
      assert.equal(version, before + 1);
      const now = await publicText(round.kind);
      assert.equal(now.version, version, 'public/ serves the new version');
      assert.ok(now.sv.includes(`Ändring ${id}`) && now.en.includes(`Change ${id}`));

      await withPage(`legal-customer-${round.kind}`, async (page) => {
        await page.goto(url('/login'));
        await page.locator(byTestId('login-form')).waitFor();
        if (round.lang === 'en') await chooseLanguage(page, 'en');
        const pending = await signInAndPending(page, 'customer@example.com', '/user/');
        assert.deepEqual(pending.map((t) => [t.kind, t.version]), [[round.kind, version]], 'asked about the new version only');
        assert.ok((await acceptedVersion(page, round.kind)) < version);
        await acceptModal(page, { title: round.title, line, version });
        assert.equal(await acceptedVersion(page, round.kind), version, 'the acceptance is recorded with its version');
        const mine = (await apiCall(page, 'GET', '/legal/acceptances/')).body.find((a) => a.kind === round.kind && a.version === version);
        assert.ok(Date.now() - Date.parse(mine.accepted_at) < 5 * 60_000, 'accepted just now');

        await assertNotAsked(page, await reloadAndPending(page), 'after a reload');
        await logout(page);
        await assertNotAsked(page, await signInAndPending(page, 'customer@example.com', '/user/'), 'at the next sign-in');
      });

      // The contact acts under its customer's agreement: not asked (see the head of this file).
      await withPage(`legal-contact-${round.kind}`, async (page) => {
        await page.goto(url('/login'));
        await page.locator(byTestId('login-form')).waitFor();
        if (round.lang === 'en') await chooseLanguage(page, 'en');
        // The app asks the server only for a customer; the server has nothing pending for a contact either.
        await signIn(page, 'contact@example.com', '/customer_contact/');
        await page.locator(byTestId('side-menu')).waitFor();
        await assertNotAsked(page, (await apiCall(page, 'GET', '/legal/pending/')).body, 'the contact');
      });
    });
  }
});
