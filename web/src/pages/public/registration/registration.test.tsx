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

/** Choose an option of a native select (the sector, the country). */
async function choose(testId: string, value: string) {
  const select = page.ui!.$(testId) as HTMLSelectElement;
  await act(async () => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

async function check(testId: string) {
  const box = page.ui!.$(testId)?.querySelector('input') ?? (page.ui!.$(testId) as HTMLInputElement);
  await act(async () => box.click());
}

type Rendered = Awaited<ReturnType<typeof render>>;

/** The person, a valid password, the visiting address and both acceptances: what every sign-up here fills alike. */
async function fillPerson(type: Rendered['type'], who: { first: string; last: string; email: string }) {
  await type('reg-first-name', who.first);
  await type('reg-last-name', who.last);
  await type('reg-email', who.email);
  await type('reg-phone', '070-123 45 67');
  await type('reg-password', 'Long-enough-pass-1');
  await type('reg-confirm-password', 'Long-enough-pass-1');
  await type('reg-profile-address1', 'Storgatan 1');
  await type('reg-profile-city', 'Stockholm');
  await type('reg-profile-postcode', '11122');
  await check('reg-terms');
  await check('reg-privacy');
}

/** The form for an individual (Ina Ind, her e-mail free), filled and ready to send. */
async function renderIndividual(): Promise<Rendered> {
  const r = await render();
  fake.routes.set('POST /email/check/', () => ({ status: 200, body: { available: true } }));
  await r.click('reg-type-individual');
  await r.waitFor(() => !r.$('reg-company-name'), 'company fields hidden', 20_000);
  await fillPerson(r.type, { first: 'Ina', last: 'Ind', email: 'ina@example.com' });
  return r;
}

// A big form: give jsdom time on a loaded machine.
describe('registration page', { timeout: 180_000 }, () => {
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
    const { $, type, click, waitFor } = await renderIndividual();

    fake.replies.push(() => ({
      status: 400,
      body: { status: 400, message: 'validation_failed', errors: { 'profile.post_code': ['invalid_post_code'], password: ['password_too_common'] } },
    }));
    await click('reg-submit');
    await waitFor(() => text().includes('This password is too common'), 'server field error', 20_000);
    expect(text()).toContain('The post code must be exactly 5 digits');
    // The first refused field in the form's order (the password comes before the address) has the focus.
    await waitFor(() => document.activeElement === $('reg-password'), 'refused password focused', 20_000);
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

    // Sent with an Idempotency-Key; the corrected form is another request with another key.
    const key = (c: (typeof fake.calls)[number]) => c.options?.headers?.['Idempotency-Key'];
    expect(key(sent)).toMatch(/^"[0-9a-f-]{36}"$/);
    fake.replies.push(() => ({ status: 201, body: { message: 'registration_received' } }));
    await type('reg-password', 'Another-long-pass-2');
    await type('reg-confirm-password', 'Another-long-pass-2');
    await click('reg-submit');
    const done = await waitFor(() => $('registration-success'), 'success screen', 20_000);
    expect(done.textContent).toContain('awaiting approval');
    const keys = fake.calls.filter((c) => c.path === '/registration/').map(key);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('sends a sign-up whose answer was lost once more with the same key, and again after a second press', async () => {
    const { $, click, waitFor } = await renderIndividual();
    // The first answer is lost, and so is the client's own retry: the page stays.
    fake.replies.push(() => ({ status: 504, body: { status: 504, message: 'request_timed_out' } }));
    fake.replies.push(() => 'network-error');
    await click('reg-submit');
    const posts = () => fake.calls.filter((c) => c.path === '/registration/');
    await waitFor(() => posts().length === 2 && !$('reg-submit')?.hasAttribute('disabled'), 'two tries', 20_000);
    expect($('registration-success')).toBeNull();
    // The user presses again: the same form, the same key (the server answers from the first).
    fake.replies.push(() => ({ status: 201, body: { message: 'registration_received' } }));
    await click('reg-submit');
    await waitFor(() => $('registration-success'), 'success screen', 20_000);
    const keys = posts().map((c) => c.options?.headers?.['Idempotency-Key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('a company: its fields, the registration number checked once per value, the sector chosen, the invoice address', async () => {
    const { $, type, click, waitFor } = await render();
    fake.routes.set('POST /create/customer/company-registration-number/check/', (c) => {
      const number = (c.options?.body as { company_registration_number: string }).company_registration_number;
      return { status: 200, body: { available: number !== '556677-1234' } };
    });
    fake.routes.set('POST /email/check/', () => ({ status: 200, body: { available: true } }));
    const regnoChecks = (number: string) =>
      fake.calls.filter((c) => c.path.endsWith('/company-registration-number/check/') && (c.options?.body as { company_registration_number: string }).company_registration_number === number).length;

    // The sector list from the API, in a native select (phones get their own picker) with its placeholder.
    const sector = (await waitFor(() => ($('reg-sector') as HTMLSelectElement | null)?.options.length === 3 && $('reg-sector'), 'sectors')) as HTMLSelectElement;
    expect([...sector.options].map((o) => o.textContent)).toEqual(['Choose a business sector', 'Consumer goods', 'Financial']);
    expect(sector.value).toBe('');
    expect(document.querySelector('label[for="registration_sector"]')?.textContent).toBe('Business sector');

    await type('reg-regno', '556677-1234');
    await waitFor(() => text().includes('This company registration number is already registered.'), 'taken number', 15_000);
    const regno = $('reg-regno') as HTMLInputElement;
    expect(regno.getAttribute('aria-invalid')).toBe('true');
    // The error and the hint line (antd's `extra`) are both linked to the field.
    expect(regno.getAttribute('aria-describedby')).toBe('registration_company_registration_number_help registration_company_registration_number_extra');
    expect(document.getElementById('registration_company_registration_number_extra')?.textContent).toBe('Format 123456-7890');
    await type('reg-regno', '556677-9999');
    await waitFor(() => !text().includes('already registered'), 'free number', 15_000);
    // The same value again: the remembered answer, no second call.
    await type('reg-regno', '556677-1234');
    await waitFor(() => text().includes('This company registration number is already registered.'), 'taken again', 15_000);
    expect(regnoChecks('556677-1234')).toBe(1);
    expect(regnoChecks('556677-9999')).toBe(1);

    // The invoice address shows, with its own rules, when it is not the visiting address.
    expect($('reg-invoice_address-address1')).toBeNull();
    await check('reg-same-invoice');
    await waitFor(() => $('reg-invoice_address-address1'), 'invoice address');

    await type('reg-company-name', 'Firma AB');
    await fillPerson(type, { first: 'Fia', last: 'Firma', email: 'fia@example.com' });
    await click('reg-submit');
    // Refused on the client: the taken number, the sector and the invoice address's fields.
    await waitFor(() => ($('reg-invoice_address-city') as HTMLInputElement).getAttribute('aria-invalid') === 'true', 'invoice rules', 15_000);
    expect(text()).toContain('This company registration number is already registered.');
    expect(sector.getAttribute('aria-invalid')).toBe('true');
    expect(sector.className).toContain('plain-select-error');
    expect(($('reg-invoice_address-postcode') as HTMLInputElement).getAttribute('aria-invalid')).toBe('true');
    expect(fake.calls.filter((c) => c.path === '/registration/')).toHaveLength(0);
    // The first field in error has the focus.
    expect(document.activeElement).toBe(regno);

    await type('reg-regno', '556677-9999');
    await choose('reg-sector', '2');
    await type('reg-invoice_address-address1', 'Box 12');
    await type('reg-invoice_address-city', 'Solna');
    await type('reg-invoice_address-postcode', '17000');
    await waitFor(() => sector.getAttribute('aria-invalid') === null, 'sector chosen');
    fake.replies.push(() => ({ status: 201, body: { message: 'registration_received' } }));
    await click('reg-submit');
    await waitFor(() => $('registration-success'), 'success screen', 20_000);
    expect(fake.calls.find((c) => c.path === '/registration/')?.options?.body).toMatchObject({
      customer_type: 'Company',
      company_name: 'Firma AB',
      company_registration_number: '556677-9999',
      sector: '2',
      same_invoice_address: false,
      profile: { address_1: 'Storgatan 1', city: 'Stockholm', post_code: '11122', country: 1 },
      invoice_address: { address_1: 'Box 12', address_2: '', city: 'Solna', post_code: '17000', country: 1 },
    });
  });

  it('fields are labelled, their errors announced and linked; the customer type is a radio group', async () => {
    const { $, type, waitFor } = await render();
    const group = $('reg-type')!;
    expect(group.getAttribute('role')).toBe('radiogroup');
    expect(document.getElementById(group.getAttribute('aria-labelledby')!)?.textContent).toBe('Customer type');
    expect(($('reg-type-company') as HTMLInputElement).checked).toBe(true);
    expect(document.querySelector('label[for="registration_profile_post_code"]')?.textContent).toBe('Post code');
    await type('reg-profile-postcode', '123');
    await waitFor(() => text().includes('The post code must be exactly 5 digits'), 'post code rule');
    const postcode = $('reg-profile-postcode') as HTMLInputElement;
    expect(postcode.id).toBe('registration_profile_post_code');
    expect(postcode.getAttribute('aria-invalid')).toBe('true');
    const help = document.getElementById(postcode.getAttribute('aria-describedby')!);
    expect(help?.getAttribute('role')).toBe('alert');
    expect(help?.textContent).toContain('The post code must be exactly 5 digits');
    // The confirmation follows the password (antd's `dependencies`).
    await type('reg-password', 'Long-enough-pass-1');
    await type('reg-confirm-password', 'Long-enough-pass-1');
    expect(text()).not.toContain('The passwords do not match.');
    await type('reg-password', 'Long-enough-pass-2');
    await waitFor(() => text().includes('The passwords do not match.'), 'mismatch after the password changed');
  });
});
