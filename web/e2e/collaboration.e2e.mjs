// End-to-end tests of collaboration (spec §2 header dropdowns, §4
// notification states, §6 who messages and rates, §7 calls, §9 polling):
// (a) a lawyer writes in a case and the customer's messages badge rises
//     within one poll (the interval shortened through localStorage
//     `notification_poll_ms`, no rebuild), opening the dropdown sets it to
//     0, and clicking the item opens the case at the conversation;
// (b) the customer rates the closed case and admin sees the lawyer's
//     average in the lawyers list.
// Both in Swedish; (a) also saves screenshots of the dropdowns, the
// conversation panel and the notifications page at 1366×900 and 390×844 in
// sv and en to web/test-results/collab-*.png.
// Uses case-customer@example.com (SEED_E2E=1), admin and the demo lawyer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { animationsDone, apiCall, byTestId, chooseLanguage, RESULTS_DIR, url } from './helpers.mjs';
import { caseWorld } from './caseWorld.mjs';

const POLL_MS = 1500;

/** An in-progress case of the world's customer, worked by the demo lawyer. */
async function caseInProgress(w, subject) {
  const created = await apiCall(w.ap, 'POST', '/case/create/', { customer: w.uid, subject, description: 'Samarbete', type: w.caseType, estimated_hours: '3' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const uid = created.body.uid;
  assert.equal((await apiCall(w.ap, 'POST', `/case/status/${uid}/`, { action: 'publish' })).status, 200);
  assert.equal((await apiCall(w.lp, 'POST', `/case/status/${uid}/`, { action: 'accept' })).status, 200);
  return created.body;
}

const badgeCount = async (page, kind) => Number(await page.locator(byTestId(`header-${kind}-badge`)).getAttribute('data-count'));

async function shot(page, name) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: join(RESULTS_DIR, `collab-${name}.png`) });
}

describe('collaboration', { timeout: 240_000 }, () => {
  test('a lawyer writes; the customer badge rises within one poll, opening clears it, the item opens the conversation', async () => {
    const w = await caseWorld();
    const { cp, lp } = w;
    try {
      const kase = await caseInProgress(w, `E2E samtal ${Date.now()}`);
      // The customer's polling interval, shortened for this test (read at start-up, no rebuild).
      await w.customer.context.addInitScript((ms) => localStorage.setItem('notification_poll_ms', String(ms)), POLL_MS);
      await cp.goto(url('/user/'));
      await cp.locator(byTestId('header-messages')).waitFor();
      // Start from a seen dropdown.
      await cp.locator(byTestId('header-messages')).click();
      await cp.locator(byTestId('header-messages-dropdown')).waitFor();
      await cp.locator(byTestId('header-messages')).click();
      await cp.locator(byTestId('header-messages-dropdown')).waitFor({ state: 'hidden' });
      assert.equal(await badgeCount(cp, 'messages'), 0);

      // The lawyer writes in the case.
      const text = `Hej! Jag har läst avtalet ${Date.now()}.`;
      await lp.goto(url(`/lawyer/cases/details/${kase.uid}`));
      await lp.locator(byTestId('conversation-input')).fill(text);
      const posted = lp.waitForResponse((r) => r.url().endsWith('/api/message/') && r.request().method() === 'POST');
      await lp.locator(byTestId('conversation-send')).click();
      assert.equal((await posted).status(), 201);
      await lp.locator(byTestId('conversation-text'), { hasText: text }).waitFor();
      const sentAt = Date.now();

      // Within one poll the customer's badge shows it.
      await cp.locator(`${byTestId('header-messages-badge')}[data-count="1"]`).waitFor({ timeout: POLL_MS * 2 + 5_000 });
      assert.ok(Date.now() - sentAt < POLL_MS * 2 + 5_000);

      // Opening the dropdown marks it seen: the badge goes to 0.
      const seen = cp.waitForResponse((r) => r.url().includes('/api/notification/seen/update/') && r.url().includes('description=message'));
      await cp.locator(byTestId('header-messages')).click();
      assert.equal((await seen).status(), 204);
      const item = cp.locator(byTestId('header-messages-item')).first();
      await item.waitFor();
      assert.equal(await badgeCount(cp, 'messages'), 0);
      assert.equal(await item.getAttribute('data-unread'), 'true');
      assert.match(await item.innerText(), new RegExp(`skrev i ärende ${kase.case_number}`));
      const box = await cp.locator(byTestId('header-messages-dropdown')).boundingBox();
      assert.equal(Math.round(box.width), 300);
      await shot(cp, 'messages-dropdown-1366-sv');

      // After a poll the server agrees: still 0.
      await cp.waitForTimeout(POLL_MS + 500);
      assert.equal(await badgeCount(cp, 'messages'), 0);

      // Clicking the item reads it and opens the case at the conversation.
      const read = cp.waitForResponse((r) => r.url().includes('/api/notification/') && r.request().method() === 'PATCH');
      await item.click();
      assert.equal((await read).status(), 200);
      await cp.waitForURL((u) => u.pathname === `/user/cases/details/${kase.uid}` && u.hash === '#conversation');
      await cp.locator(byTestId('conversation-text'), { hasText: text }).waitFor();
      await cp.waitForFunction(() => {
        const r = document.getElementById('conversation')?.getBoundingClientRect();
        return !!r && r.top < window.innerHeight && r.bottom > 0;
      });
      await shot(cp, 'conversation-1366-sv');

      // The customer answers; the lawyer's side shows it read once the customer saw it.
      await cp.locator(byTestId('conversation-input')).fill('Tack, det låter bra.');
      await cp.locator(byTestId('conversation-send')).click();
      await cp.locator(byTestId('conversation-text'), { hasText: 'Tack, det låter bra.' }).waitFor();
      await lp.reload();
      await lp.locator(`${byTestId('conversation-status')}[data-read="true"]`).first().waitFor();

      // The rest of the screenshots: the notifications dropdown and page, both languages, both sizes.
      await cp.locator(byTestId('header-notifications')).click();
      await cp.locator(byTestId('header-notifications-dropdown')).waitFor();
      await shot(cp, 'notifications-dropdown-1366-sv');
      await cp.locator(byTestId('header-notifications')).click();
      await cp.goto(url('/user/notifications/'));
      await cp.locator(byTestId('notifications-page')).waitFor();
      await cp.locator(`${byTestId('notifications-list')}, ${byTestId('notifications-page')} .ant-empty`).first().waitFor();
      await shot(cp, 'notifications-page-1366-sv');
      for (const lang of ['en', 'sv']) {
        await chooseLanguage(cp, lang);
        for (const [w2, h2] of lang === 'en' ? [[1366, 900], [390, 844]] : [[390, 844]]) {
          await cp.setViewportSize({ width: w2, height: h2 });
          const size = `${w2}-${lang}`;
          await cp.goto(url('/user/notifications/'));
          await cp.locator(byTestId('notifications-page')).waitFor();
          await shot(cp, `notifications-page-${size}`);
          await cp.locator(byTestId('header-messages')).click();
          await cp.locator(byTestId('header-messages-item')).first().waitFor();
          await animationsDone(cp);
          await shot(cp, `messages-dropdown-${size}`);
          await cp.locator(byTestId('header-messages')).click();
          await cp.locator(byTestId('header-messages-dropdown')).waitFor({ state: 'hidden' });
          await cp.locator(byTestId('header-notifications')).click();
          await cp.locator(byTestId('header-notifications-item')).first().waitFor();
          await animationsDone(cp);
          await shot(cp, `notifications-dropdown-${size}`);
          await cp.locator(byTestId('header-notifications')).click();
          await cp.locator(byTestId('header-notifications-dropdown')).waitFor({ state: 'hidden' });
          await cp.goto(url(`/user/cases/details/${kase.uid}#conversation`));
          await cp.locator(byTestId('conversation-text')).first().waitFor();
          // Scrolled to the conversation (the link's #conversation), as the screenshot should show it.
          await cp.waitForFunction(() => {
            const r = document.getElementById('conversation')?.getBoundingClientRect();
            return !!r && r.top < window.innerHeight && r.bottom > 0;
          });
          await animationsDone(cp);
          await shot(cp, `conversation-${size}`);
        }
      }
    } finally {
      await w.close();
    }
  });

  test('the customer rates a closed case; admin sees the lawyer average in the lawyers list', async () => {
    const w = await caseWorld();
    const { cp, ap, lp } = w;
    try {
      const kase = await caseInProgress(w, `E2E betyg ${Date.now()}`);
      assert.equal((await apiCall(lp, 'POST', `/case/status/${kase.uid}/`, { action: 'complete' })).status, 200);
      const lawyerUid = (await apiCall(lp, 'GET', '/profile/')).body.uid;

      // The customer rates it: 4 stars and a comment, once.
      await cp.goto(url(`/user/cases/details/${kase.uid}`));
      await cp.locator(byTestId('case-rate-form')).waitFor();
      await cp.locator(`${byTestId('case-rate-stars')} li`).nth(3).locator('div[role="radio"]').click();
      await cp.locator(byTestId('case-rate-comment')).fill('Snabbt och tydligt.');
      const rated = cp.waitForResponse((r) => r.url().endsWith('/api/rating/create/'));
      await cp.locator(byTestId('case-rate-submit')).click();
      const res = await rated;
      assert.equal(res.status(), 201, await res.text());
      await cp.locator(`${byTestId('case-rating-stars')}[data-stars="4"]`).waitFor();
      assert.equal(await cp.locator(byTestId('case-rate-form')).count(), 0);
      // A second rating is refused.
      assert.equal((await apiCall(cp, 'POST', '/rating/create/', { case_uid: kase.uid, stars: 5, comment: '' })).status, 400);

      // Admin: the lawyer's average and count in the lawyers list (the lawyer's row may be on a later page).
      let profile = null;
      for (let cursor = null, i = 0; !profile && i < 20; i++) {
        const page = (await apiCall(ap, 'GET', `/lawyer/list/?type=internal${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body;
        profile = page.results.find((p) => p.uid === lawyerUid) ?? null;
        cursor = page.next;
        if (!cursor) break;
      }
      assert.ok(profile, 'the demo lawyer is listed');
      assert.ok(profile.rating_count >= 1);
      const average = new Intl.NumberFormat('sv-SE', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(profile.rating_average);
      await ap.goto(url('/admin/lawyers/'));
      await ap.locator(byTestId('staff-table')).waitFor();
      const row = ap.locator('tr', { hasText: profile.email });
      const next = ap.locator(byTestId('pager-next'));
      for (let i = 0; i < 20; i++) {
        // A page's rows and its pager arrive together, after the table shows
        // (it was clicked through before the first page had come, once).
        await row.or(next).first().waitFor();
        if (await row.count()) break;
        await next.click();
        await ap.locator('.ant-spin-spinning').first().waitFor({ state: 'hidden' });
        await ap.waitForTimeout(300);
      }
      const cell = row.locator(byTestId('staff-row-rating'));
      assert.equal(await cell.getAttribute('data-count'), String(profile.rating_count));
      assert.match(await cell.innerText(), new RegExp(`${average.replace('.', '\\.')} av 5`));
      await shot(ap, 'admin-lawyers-1366-sv');
    } finally {
      await w.close();
    }
  });
});
