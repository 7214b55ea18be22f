import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests, TEST_AUTH: auth } = await import('../../test/renderApp');
const session = await import('../../store/session');
const { default: i18n, translateServerMessage } = await import('../../i18n');
const { autostartLink, deviceOf } = await import('../../api/bankid');

const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee' };
const started = { order_ref: 'order-1', auto_start_token: 'auto-1', qr_data: 'bankid.tok.0.aaa', qr_data_next: 'bankid.tok.1.bbb', poll_ms: 30 };

/** Collect answers in turn (the last one repeats). */
function collects(...answers: object[]) {
  let n = 0;
  fake.routes.set('POST /bankid/collect/', (c) => {
    expect(c).toMatchObject({ options: { body: { order_ref: 'order-1' } } });
    return { status: 200, body: answers[Math.min(n++, answers.length - 1)] };
  });
}

describe('BankID', { timeout: 180_000 }, () => {
  const page = pageTests();

  it('signs in from the login page: QR code from the server, BankID’s message, then the session', async () => {
    const { $, click, waitFor, path } = await page.render('/login', null, { 'POST /bankid/auth/': () => ({ status: 200, body: started }) });
    expect($('bankid-panel')).toBeNull();
    // Pending until the test has seen the QR code: BankID's app completes the order only once it was scanned
    // (answered complete at once, a loaded machine's test could look after the page had already moved on).
    collects({ status: 'pending', hint_code: 'started', message: 'rfa14', qr_data: 'bankid.tok.2.ccc', qr_data_next: 'bankid.tok.3.ddd' });
    fake.routes.set('GET /profile/', () => ({ status: 200, body: customer }));
    await click('login-bankid');
    const qr = await waitFor(() => $('bankid-qr'), 'QR code');
    expect(qr.querySelector('svg')).not.toBeNull();
    expect(fake.calls.find((c) => c.path === '/bankid/auth/')).toMatchObject({ options: { body: { device: 'qr' } } });
    collects({ status: 'complete', message: 'complete', auth });
    await waitFor(() => path() === '/user/', 'signed in');
    expect(session.getState().auth).toEqual(auth);
    // The secret never came: only QR data the server computed was shown.
    expect(JSON.stringify(fake.calls)).not.toContain('qr_start_secret');
  });

  it('shows BankID’s message for a hint and a failure in English and Swedish, and cancels when closed', async () => {
    const { $, click, waitFor } = await page.render('/login', null, { 'POST /bankid/auth/': () => ({ status: 200, body: started }) });
    fake.routes.set('POST /bankid/cancel/', () => ({ status: 200, body: { message: 'bankid_cancelled' } }));
    collects({ status: 'pending', hint_code: 'userSign', message: 'rfa9', qr_data: 'bankid.tok.1.x', qr_data_next: 'bankid.tok.2.y' });
    await click('login-bankid');
    await waitFor(() => $('bankid-message')?.textContent === 'Enter your security code in the BankID app and select Identify.', 'rfa9');
    expect($('bankid-qr')!.dataset.qr).toMatch(/^bankid\.tok\.[12]\./);
    await click('bankid-cancel');
    await waitFor(() => fake.calls.some((c) => c.path === '/bankid/cancel/'), 'cancelled at the server');
    expect($('bankid-panel')).toBeNull();

    collects({ status: 'failed', hint_code: 'userCancel', message: 'rfa6' });
    await click('login-bankid');
    await waitFor(() => $('bankid-error')?.textContent?.includes('Action cancelled.'), 'rfa6 in English');
    await i18n.changeLanguage('sv');
    try {
      await waitFor(() => $('bankid-error')?.textContent?.includes('Åtgärden avbruten.'), 'rfa6 in Swedish');
      expect(i18n.t('bankid:message.rfa17b')).toMatch(/^Misslyckades att läsa av QR-koden/);
      expect(translateServerMessage('bankid_unknown_person')).toMatch(/^Inget konto är kopplat/);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('an unknown person is told so, with no session', async () => {
    const { $, click, waitFor } = await page.render('/login', null, { 'POST /bankid/auth/': () => ({ status: 200, body: started }) });
    fake.routes.set('POST /bankid/collect/', () => ({ status: 400, body: { status: 400, message: 'bankid_unknown_person' } }));
    await click('login-bankid');
    await waitFor(() => $('bankid-error')?.textContent?.includes('No account is linked to this BankID.'), 'unknown person');
    expect(session.getState().auth).toBeFalsy();
  });

  it('every message BankID recommends has a text in both languages', async () => {
    await import('./texts');
    const keys = ['1', '3', '6', '8', '9', '13', '14', '15', '16', '17a', '17b', '21', '23'].map((n) => `message.rfa${n}`);
    for (const lang of ['sv', 'en']) {
      await i18n.changeLanguage(lang);
      for (const key of keys) expect(i18n.exists(`bankid:${key}`), `${lang} ${key}`).toBe(true);
      for (const key of ['bankid_rfa4', 'bankid_rfa5', 'bankid_rfa22']) expect(i18n.exists(`server:${key}`), `${lang} ${key}`).toBe(true);
    }
    await i18n.changeLanguage('en');
  });

  it('phones open the app on the device with BankID’s autostart link', () => {
    expect(deviceOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('this_device');
    expect(deviceOf('Mozilla/5.0 (X11; Linux x86_64) Chrome/120')).toBe('qr');
    expect(autostartLink('a-b')).toBe('bankid:///?autostarttoken=a-b&redirect=null');
  });
});
