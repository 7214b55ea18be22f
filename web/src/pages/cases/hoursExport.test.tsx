import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');

const { lawyerUser: lawyer, sampleDetails } = await import('./fixtures');
const details = sampleDetails({ case_number: '2026-000003', can_edit: true, can_enter_hours: true });
const entry = {
  id: 'h1', case_uid: 'case-1', lawyer: 'law-1', lawyer_name: 'Lars Jurist', hour: 1.5, non_billable_hour: 0,
  rattsskydd_hour: 0, date: '2026-11-20', time: '', is_invoiced: false, service: 1, description: '',
};

describe('hours export', { timeout: 180_000 }, () => {
  const page = pageTests();

  it('downloads the workbook in the interface language under the case number', async () => {
    const workbook = new Blob(['PK fake xlsx'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    const created: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => (created.push(b), 'blob:xlsx'));
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const r = await page.render('/lawyer/cases/details/case-1', lawyer, {
      'GET /case/case-1/': () => ({ status: 200, body: details }),
      'GET /case/hour/list/': () => ({ status: 200, body: [entry] }),
      'GET /case/hour/excel/': () => ({ status: 200, body: workbook }),
    });
    const button = await r.waitFor(() => {
      const b = r.$('case-hours-excel') as HTMLButtonElement | null;
      return b && !b.disabled ? b : null;
    }, 'export button');
    expect(button.textContent).toBe('Export to Excel');
    await r.click('case-hours-excel');
    await r.waitFor(() => names.length > 0, 'download');
    const call = fake.calls.find((c) => c.path === '/case/hour/excel/');
    expect(call?.options?.queryParams).toEqual({ case: 'case-1', lang: 'en' });
    expect(names).toEqual(['case-hours-2026-000003.xlsx']);
    expect(created[0]).toBe(workbook);
    click.mockRestore();
  });

  it('is disabled while there are no hours', async () => {
    const r = await page.render('/lawyer/cases/details/case-1', lawyer, {
      'GET /case/case-1/': () => ({ status: 200, body: details }),
      'GET /case/hour/list/': () => ({ status: 200, body: [] }),
    });
    const b = await r.waitFor(() => r.$('case-hours-excel') as HTMLButtonElement | null, 'button');
    expect(b.disabled).toBe(true);
  });
});
