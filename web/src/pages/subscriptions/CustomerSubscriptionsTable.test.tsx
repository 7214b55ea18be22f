import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';
import { purchasedService } from './fixtures';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { default: CustomerSubscriptionsTable } = await import('./CustomerSubscriptionsTable');
const format = await import('./format');
type Row = import('../../types/subscriptions').PurchasedService;

const row = (over: Partial<Row> = {}): Row => purchasedService(over);

const page = pageTests();

/** The table as `user` sees it; its menus and dialogs open in portals, so the helpers search the whole document. */
async function render(rows: Row[], user: Record<string, unknown> | null, onChanged = vi.fn()) {
  await page.mount(<CustomerSubscriptionsTable rows={rows} onChanged={onChanged} />, user);
  return onChanged;
}
const $ = (id: string) => page.ui!.$(id);
const waitFor = <T,>(fn: () => T | null | undefined | false, what: string) => page.ui!.waitFor(fn, what);
const click = (id: string) => page.ui!.click(id);
const type = (id: string, value: string) => page.ui!.type(id, value);

const admin = { email: 'a@example.com', id: 1, is_staff: true, user_type: null };
const customer = { email: 'c@example.com', id: 2, is_staff: false, user_type: 3 };

describe('format helpers', () => {
  it('shows service 1 in hours with comma decimals and other services as uses', () => {
    const lang = document.documentElement.lang;
    document.documentElement.lang = 'en';
    expect(format.limitText(row({ hour: 10 }))).toBe('10hr');
    expect(format.consumedText(row({ hour: 5, consumed_hour: 2 }))).toBe('2h/5h');
    document.documentElement.lang = 'sv';
    expect(format.consumedText(row({ hour: 2.5, consumed_hour: 0.25 }))).toBe('0,25/2,5 tim');
    expect(format.limitText(row({ hour: 60 }))).toBe('60 tim');
    // a bare service named in the reader's language, not as stored
    expect(format.rowName(row({ service: { id: 4, name: 'Incasso' }, service_plan: null, packages: null }))).toMatch(/^Inkasso/);
    // decimals by the active language
    document.documentElement.lang = 'en';
    expect(format.consumedText(row({ hour: 2.5, consumed_hour: 0.25 }))).toBe('0.25h/2.5h');
    document.documentElement.lang = lang;
    const bisnode = row({ service: { id: 3, name: 'Bisnode' }, limit: 3, consumed_limit: 1 });
    expect(format.limitText(bisnode)).toBe('3');
    expect(format.consumedText(bisnode)).toBe('1/3');
    expect(format.parseHours('2,5')).toBe(2.5);
    expect(format.parseHours('0,001')).toBeNull();
    // money one way everywhere: sv-SE with the currency code
    expect(format.formatSek(1500, 'sv').replace(/\s/g, ' ')).toBe('1 500,00 SEK');
    expect(format.remaining(row({ hour: 10, consumed_hour: 2.5 }))).toEqual({ left: 7.5, total: 10, percentUsed: 25 });
    expect(format.remaining(row({ hour: 5, consumed_hour: 6 }))?.left).toBe(0);
  });

  it('options for user_type 1, 2 or unset; subscriptions hidden from external lawyers', () => {
    expect(format.showsRowActions({ user_type: null })).toBe(true);
    expect(format.showsRowActions({ user_type: 1 })).toBe(true);
    expect(format.showsRowActions({ user_type: 2 })).toBe(true);
    expect(format.showsRowActions({ user_type: 3 })).toBe(false);
    expect(format.showsRowActions({ user_type: 4 })).toBe(false);
    expect(format.isExternalLawyer({ user_type: 1, user_sub_type: 'external' })).toBe(true);
    expect(format.isExternalLawyer({ user_type: 1, user_sub_type: 'internal' })).toBe(false);
  });
});

describe('CustomerSubscriptionsTable', { timeout: 180_000 }, () => {
  it('renders the empty text', async () => {
    await render([], admin);
    expect($('subscriptions-empty')?.textContent).toBe('No services available');
  });

  it('status chips carry the spec colours and the Advance tag', async () => {
    const rows = [
      row({ id: 1, status: 'Active' }),
      row({ id: 2, status: 'Inactive', advance: true, active: false }),
      row({ id: 3, status: 'Consumed', active: false, consumed_hour: 6 }),
      row({ id: 4, status: 'Expired', expired: true }),
      row({ id: 5, status: 'Deactivated', active: false }),
    ];
    const lang = document.documentElement.lang;
    document.documentElement.lang = 'en';
    await render(rows, admin);
    const colours = rows.map((r) => $(`sub-status-${r.id}`)?.getAttribute('data-color'));
    expect(colours).toEqual(['green', 'purple', 'gold', 'red', 'default']);
    expect($('sub-status-2')?.textContent).toBe('Inactive');
    expect($('sub-advance-2')?.textContent).toBe('Advance');
    expect($('sub-advance-1')).toBeNull();
    expect($('sub-limit-1')?.textContent).toBe('5hr');
    expect($('sub-consumed-1')?.textContent).toBe('2h/5h');
    expect($('sub-left-1')?.textContent).toContain('3 h left');
    document.documentElement.lang = lang;
  });

  it('an advance purchase says when it starts instead of Deactivated', async () => {
    await render([row({ id: 7, status: 'Deactivated', advance: true, active: false, start_date: '2099-03-01 00:00:00' })], admin);
    expect($('sub-status-7')).toBeNull();
    expect($('sub-starts-7')?.textContent).toBe('Starts on 2099-03-01 when the current one ends');
  });

  it('Options and CSV only for user_type 1, 2 or unset', async () => {
    await render([row()], customer);
    expect($('sub-options-11')).toBeNull();
    expect($('sub-csv-11')).toBeNull();
    expect(document.body.textContent).not.toContain('Last update date');
    await render([row()], admin);
    expect($('sub-options-11')).not.toBeNull();
    expect($('sub-csv-11')).not.toBeNull();
    expect(document.body.textContent).toContain('Last update date');
  });

  it('hidden entirely for external lawyers', async () => {
    await render([row()], { email: 'l@example.com', id: 3, is_staff: false, user_type: 1, user_sub_type: 'external' });
    expect($('subscriptions-table')).toBeNull();
  });

  it("change service opens with the row's values: saving untouched sends them back; hours are validated", async () => {
    const onChanged = await render([row({ hour: 40.5 })], admin);
    await click('sub-options-11');
    // activate is not offered when hours are not below consumed; auto date is (no child)
    await waitFor(() => $('sub-action-change-11'), 'menu');
    expect($('sub-action-activate-11')).toBeNull();
    expect($('sub-action-auto-11')).not.toBeNull();
    await click('sub-action-change-11');
    const hours = await waitFor(() => $('change-hours') as HTMLInputElement | null, 'hours input');
    expect(hours.value).toBe('40,5');
    expect(($('change-start') as HTMLInputElement).value).toBe('2026-01-01 00:00:00');
    expect(($('change-expire') as HTMLInputElement).value).toBe('2026-12-31 00:00:00');

    fake.replies.push(() => ({ status: 200, body: { message: 'service_updated' } }));
    await click('change-submit');
    await waitFor(() => fake.calls.length === 1, 'PATCH');
    const call = fake.calls[0];
    expect(call.method).toBe('PATCH');
    expect(call.path).toBe('/puchasedservices/11/');
    // The row's values back as they were (hours as a plain decimal).
    expect(call.options!.body).toEqual({ start_date: '2026-01-01 00:00:00', expire_on: '2026-12-31 00:00:00', hour: '40.5' });
    await waitFor(() => onChanged.mock.calls.length === 1, 'reload');
    await waitFor(() => document.body.textContent?.includes('Service has been updated!'), 'success message');

    await click('sub-options-11');
    await waitFor(() => $('sub-action-change-11'), 'menu again');
    await click('sub-action-change-11');
    await waitFor(() => $('change-hours'), 'hours input again');
    await type('change-hours', '0');
    await click('change-submit');
    await waitFor(() => document.body.textContent?.includes('Hours must be at least 0,01'), 'min message');
    await type('change-hours', '');
    await click('change-submit');
    await waitFor(() => document.body.textContent?.includes('Please add hours'), 'required message');
    fake.replies.push(() => ({ status: 200, body: { message: 'service_updated' } }));
    await type('change-hours', '3,25');
    await click('change-submit');
    await waitFor(() => fake.calls.length === 2, 'second PATCH');
    expect((fake.calls[1].options!.body as Record<string, string>).hour).toBe('3.25'); // typed "3,25", sent as a plain decimal
  });

  it('activate offered when hours are below consumed, with the spec text', async () => {
    await render([row({ hour: 1, consumed_hour: 2, active: false, status: 'Consumed', child: 9 })], admin);
    await click('sub-options-11');
    await waitFor(() => $('sub-action-activate-11'), 'activate item');
    expect($('sub-action-auto-11')).toBeNull();
    await click('sub-action-activate-11');
    await waitFor(() => $('sub-confirm-text'), 'confirm');
    expect($('sub-confirm-text')!.textContent).toBe('Are you sure you want to activate this service?');
    fake.replies.push(() => ({ status: 400, body: { status: 400, message: 'service_activation_failed', errors: {} } }));
    await click('sub-confirm-yes');
    await waitFor(() => document.body.textContent?.includes('An error occurred while activating the service'), 'failure message');
    expect(fake.calls[0].path).toBe('/customer/purchase-services/activate/11/');
  });
});
