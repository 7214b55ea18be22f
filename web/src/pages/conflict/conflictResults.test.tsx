import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { conflictSearchTarget } = await import('../../components/ConflictSearch');
const { scorePercent } = await import('./ConflictResults');

const lawyer = { email: 'l@example.com', id: 2, is_staff: false, user_type: 1, full_name: 'Lars' };

describe('conflict of interest search', { timeout: 180_000 }, () => {
  const page = pageTests();

  it('the box submits only when non-empty, under the role prefix', () => {
    expect(conflictSearchTarget('   ')).toBeNull();
    expect(conflictSearchTarget(' Söderberg AB ')).toBe('/admin/interest/?search=S%C3%B6derberg%20AB');
    expect(conflictSearchTarget('x', 'lawyer')).toBe('/lawyer/interest/?search=x');
  });

  it('scores show as whole percentages', () => {
    expect(scorePercent(0.9234)).toBe(92);
    expect(scorePercent(1)).toBe(100);
    expect(scorePercent(1.2)).toBe(100);
  });

  it('lists hits best first with what matched, and sends the query', async () => {
    fake.routes.set('GET /search/fuzzy/', () => ({
      status: 200,
      body: {
        search: 'Soderberg',
        count: 2,
        results: [
          {
            party: { kind: 'company', uid: 'c1', name: 'Söderberg & Partners AB', identity_number: '556677-8899', customer_uid: null, context: null },
            score: 0.97,
            identity_match: false,
            words: [{ query: 'soderberg', matched: 'soderberg', score: 0.97 }],
            reasons: ['company_form_ignored', 'more_words_in_name'],
          },
          {
            party: { kind: 'counterpart', uid: 'k1', name: 'Söderbergs Bygg', identity_number: null, customer_uid: 'u1', context: 'Case 12' },
            score: 0.91,
            identity_match: false,
            words: [{ query: 'soderberg', matched: 'soderbergs', score: 0.91 }],
            reasons: ['spelled_differently', 'more_words_in_name'],
          },
        ],
      },
    }));
    const ui = await page.render('/lawyer/interest/?search=Soderberg', lawyer);
    const { $, waitFor } = ui;
    await waitFor(() => $('conflict-results'), 'results');
    const names = [...ui.container.querySelectorAll('[data-testid="conflict-hit-name"]')].map((e) => e.textContent);
    expect(names).toEqual(['Söderberg & Partners AB', 'Söderbergs Bygg']);
    expect($('conflict-count')?.textContent).toContain('2 possible conflicts');
    expect(ui.container.textContent).toContain('soderberg ≈ soderberg (97%)');
    expect(ui.container.textContent).toContain('Counterpart');
    // Why each matched, translated, so a lawyer can judge a hit quickly.
    const reasons = [...ui.container.querySelectorAll('[data-testid="conflict-hit-reasons"]')].map((e) => e.textContent);
    expect(reasons).toEqual([
      'Why: the company form differs and is ignored, the name has more words than the search',
      'Why: the name spelled another way, the name has more words than the search',
    ]);
    const call = fake.calls.find((c) => c.path === '/search/fuzzy/');
    expect(call?.options?.queryParams).toEqual({ search: 'Soderberg' });
  });

  it("the header's box opens the results of what was typed, its clear button empties it, and an empty box goes nowhere", async () => {
    fake.routes.set('GET /search/fuzzy/', () => ({ status: 200, body: { search: 'Söderberg AB', count: 0, results: [], searched_at: '2026-03-04T05:06:07Z' } }));
    const ui = await page.render('/lawyer/', lawyer);
    const box = await ui.waitFor(() => ui.container.querySelector<HTMLFormElement>('.app-layout [data-testid="conflict-search"]'), 'the header box');
    const input = box.querySelector('input')!;
    expect(input.getAttribute('aria-label')).toBe('Search conflict of interests');
    expect(box.getAttribute('role')).toBe('search');
    const typeIn = async (value: string) => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      await act(async () => {
        setter.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
    };
    const submit = () => act(async () => void box.querySelector<HTMLButtonElement>('button[type="submit"]')!.click());
    await typeIn('   ');
    await submit();
    expect(ui.path()).toBe('/lawyer/');
    await typeIn('Söderberg');
    const clear = box.querySelector<HTMLButtonElement>('button[aria-label="Clear the search"]')!;
    await act(async () => void clear.click());
    expect(input.value).toBe('');
    expect(box.querySelector('button[aria-label="Clear the search"]')).toBeNull();
    await typeIn(' Söderberg AB ');
    await submit();
    await ui.waitFor(() => ui.path() === '/lawyer/interest/', 'the results page');
    expect(ui.location().search).toBe('?search=S%C3%B6derberg%20AB');
  });

  it('without a query it asks for one and calls nothing', async () => {
    const ui = await page.render('/lawyer/interest/', lawyer);
    await ui.waitFor(() => ui.$('conflict-results-page'), 'page');
    expect(fake.calls.some((c) => c.path === '/search/fuzzy/')).toBe(false);
    expect(ui.$('conflict-results')).toBeNull();
  });

  it('no hit: a clear "no possible conflict found" with the query and the time', async () => {
    fake.routes.set('GET /search/fuzzy/', () => ({
      status: 200,
      body: { search: 'Ingen Alls', count: 0, results: [], searched_at: '2026-03-04T05:06:07Z' },
    }));
    const ui = await page.render('/lawyer/interest/?search=Ingen%20Alls', lawyer);
    await ui.waitFor(() => ui.$('conflict-none'), 'no-conflict state');
    expect(ui.$('conflict-none')?.textContent).toContain('No possible conflict found for “Ingen Alls”');
    expect(ui.$('conflict-none')?.textContent).toContain('2026');
  });

  it('a too broad search asks for more letters', async () => {
    fake.routes.set('GET /search/fuzzy/', () => ({
      status: 400,
      body: { status: 400, message: 'validation_failed', errors: { search: ['search_too_broad'] } },
    }));
    const ui = await page.render('/lawyer/interest/?search=Anna', lawyer);
    await ui.waitFor(() => ui.$('conflict-error'), 'error');
    expect(ui.$('conflict-error')?.textContent).toContain('type more letters');
  });

  it('the admin exports the month and reaches the searches in the audit trail; a lawyer neither', async () => {
    const admin = { email: 'a@example.com', id: 1, is_staff: true, user_type: null, uid: 'adm-1', full_name: 'Ada Admin' };
    const ui = await page.render('/admin/interest/', admin);
    await ui.waitFor(() => ui.$('conflict-audit-trail'), 'link');
    expect(ui.$('conflict-audit-trail')?.getAttribute('href')).toBe('/admin/settings/audit/?action=conflict_search');
    expect(ui.$('conflict-audit-export')).not.toBeNull();
    const other = await page.render('/lawyer/interest/', lawyer);
    await other.waitFor(() => other.$('conflict-results-page'), 'page');
    expect(other.$('conflict-audit-trail')).toBeNull();
  });
});
