import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../../test/renderApp');

const warning = vi.fn();
const page = pageTests({ warning });

const sectors = [
  { id: '1', name: 'Consumer goods' },
  { id: '2', name: 'Financial' },
];

async function render() {
  const r = await page.render('/registration', null, { 'GET /business-sector/': () => ({ status: 200, body: sectors }) });
  await r.waitFor(() => r.$('registration-form'), 'registration form', 20_000);
  return r;
}

const text = () => page.ui!.container.textContent ?? '';

async function check(testId: string) {
  const box = page.ui!.$(testId)?.querySelector('input') ?? (page.ui!.$(testId) as HTMLInputElement);
  await act(async () => box.click());
}

// A big form: give jsdom time on a loaded machine.
describe('registration page', { timeout: 90_000 }, () => {
  it('shows every client rule before anything is sent', async () => {
    const { type, click, waitFor } = await render();
    await type('reg-regno', '5566771234');
    await type('reg-email', 'not-an-email');
    await type('reg-phone', '12ab');
    await type('reg-profile-postcode', '111 2');
    await type('reg-password', 'short');
    await type('reg-confirm-password', 'other');
    await click('reg-submit');
    await waitFor(() => text().includes('You must agree to the privacy policy.'), 'submit validation', 20_000);
    const t = text();
    expect(t).toContain('The company registration number must have the format 123456-7890.');
    expect(t).toContain('Enter a valid e-mail address.');
    expect(t).toContain('Enter a valid phone number (7–15 digits).');
    expect(t).toContain('The password must be at least 8 characters long.');
    expect(t).toContain('The passwords do not match.');
    expect(t).toContain('You must agree to the privacy and purchase terms.');
    expect(t).toContain('You must agree to the privacy policy.');
    // first and last name, company name, sector, address line, city: required
    expect(t.split('This field is required.').length - 1).toBeGreaterThanOrEqual(6);
    expect(fake.calls.filter((c) => c.path === '/registration/')).toHaveLength(0);
    // The malformed values were never checked for availability either.
    expect(fake.calls.filter((c) => c.path.endsWith('/check/'))).toHaveLength(0);
  });

  it('checks e-mail availability as the user types', async () => {
    const { type, waitFor } = await render();
    fake.routes.set('POST /email/check/', (c) => {
      const email = (c.options?.body as { email: string }).email;
      return { status: 200, body: { available: email !== 'taken@example.com' } };
    });
    await type('reg-email', 'taken@example.com');
    await waitFor(() => text().includes('E-mail already exists.'), 'taken message', 15_000);
    await type('reg-email', 'free@example.com');
    const asked = (email: string) => fake.calls.some((c) => c.path === '/email/check/' && (c.options?.body as { email: string }).email === email);
    await waitFor(() => asked('free@example.com'), 'second check', 15_000);
    await waitFor(() => !text().includes('E-mail already exists.'), 'message gone', 15_000);
    const checked = fake.calls.filter((c) => c.path === '/email/check/').map((c) => (c.options?.body as { email: string }).email);
    expect(checked).toContain('taken@example.com');
    expect(checked).toContain('free@example.com');
  });

  it('registers an individual, maps server field errors, then shows the awaiting-approval screen', async () => {
    const { $, type, click, waitFor } = await render();
    fake.routes.set('POST /email/check/', () => ({ status: 200, body: { available: true } }));
    await click('reg-type-individual');
    await waitFor(() => !$('reg-company-name'), 'company fields hidden', 20_000);
    await type('reg-first-name', 'Ina');
    await type('reg-last-name', 'Ind');
    await type('reg-email', 'ina@example.com');
    await type('reg-phone', '070-123 45 67');
    await type('reg-password', 'Long-enough-pass-1');
    await type('reg-confirm-password', 'Long-enough-pass-1');
    await type('reg-profile-address1', 'Storgatan 1');
    await type('reg-profile-city', 'Stockholm');
    await type('reg-profile-postcode', '11122');
    await check('reg-terms');
    await check('reg-privacy');

    fake.replies.push(() => ({
      status: 400,
      body: { status: 400, message: 'validation_failed', errors: { 'profile.post_code': ['invalid_post_code'], password: ['password_too_common'] } },
    }));
    await click('reg-submit');
    await waitFor(() => text().includes('This password is too common'), 'server field error', 20_000);
    expect(text()).toContain('The post code must be exactly 5 digits');
    const sent = fake.calls.find((c) => c.path === '/registration/')!;
    expect(sent.options?.body).toMatchObject({
      customer_type: 'Individual',
      first_name: 'Ina',
      email: 'ina@example.com',
      company_name: '',
      sector: '',
      same_invoice_address: true,
      terms_accepted: true,
      privacy_accepted: true,
      profile: { address_1: 'Storgatan 1', city: 'Stockholm', post_code: '11122', country: 1 },
    });
    expect(warning).not.toHaveBeenCalled();

    fake.replies.push(() => ({ status: 201, body: { message: 'registration_received', uid: 'u1' } }));
    await type('reg-password', 'Another-long-pass-2');
    await type('reg-confirm-password', 'Another-long-pass-2');
    await click('reg-submit');
    const done = await waitFor(() => $('registration-success'), 'success screen', 20_000);
    expect(done.textContent).toContain('awaiting approval');
  });
});
