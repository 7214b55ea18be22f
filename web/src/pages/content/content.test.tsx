import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';
import { LEGAL_TEXT_MAX_CHARS } from '../../validation/bounds';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');

const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee Kund', uid: 'cust-1', image: 'not set' };
const admin = { email: 'a@example.com', id: 1, is_staff: true, user_type: null, full_name: 'Ada Admin', uid: 'adm-1', image: 'not set' };
const lawyer = { email: 'l@example.com', id: 3, is_staff: false, user_type: 1, full_name: 'Lars Lag', uid: 'law-1', image: 'not set' };
const TERMS = {
  kind: 'terms',
  version: 3,
  sv: '# Villkor v3',
  en: '# Terms v3\n\nRead **this**. <script>window.hacked = true</script><b id="raw">raw html</b>',
  published_at: '2026-11-20T10:00:00Z',
};
const page = pageTests();
const summary = ({ sv: _sv, en: _en, ...version }: { sv: string; en: string } & Record<string, unknown>) => version;
const calls = (method: string, path: string) => fake.calls.filter((c) => c.method === method && c.path === path);

describe('terms and privacy', { timeout: 180_000 }, () => {
  it('/terms shows the current version from public/ in the language shown, with raw HTML as text', async () => {
    const { waitFor, container } = await page.render('/terms', null, { 'GET /public/terms/': () => ({ status: 200, body: TERMS }) });
    const h1 = await waitFor(() => container.querySelector('[data-testid="legal-text"] h1'), 'the rendered markdown');
    expect(h1.textContent).toBe('Terms v3');
    expect(container.querySelector('[data-testid="legal-text"] strong')?.textContent).toBe('this');
    expect(container.querySelector('#raw')).toBeNull();
    expect(container.querySelector('[data-testid="legal-text"] script')).toBeNull();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
    expect(container.querySelector('[data-testid="legal-version"]')?.textContent).toContain('Version 3');
    expect(container.querySelector('[data-testid="footer-privacy"]')?.getAttribute('href')).toBe('/privacy');
  });

  it('a customer asked to accept a new version accepts it once; the modal closes', async () => {
    const { waitFor } = await page.render('/user/', customer, {
      'GET /legal/pending/': () => ({ status: 200, body: [TERMS] }),
      'POST /legal/accept/': () => ({ status: 200, body: { kind: 'terms', version: 3, accepted_at: '2026-11-24T10:00:00Z' } }),
    });
    const modal = await waitFor(() => document.querySelector('[data-testid="legal-acceptance-text"] h1'), 'the acceptance modal');
    expect(modal.textContent).toBe('Terms v3');
    const accept = document.querySelector<HTMLButtonElement>('[data-testid="legal-accept"]')!;
    await act(async () => accept.click());
    await waitFor(() => calls('POST', '/legal/accept/').length === 1, 'the acceptance');
    expect(calls('POST', '/legal/accept/')[0].options?.body).toEqual({ kind: 'terms', version: 3 });
    await waitFor(() => !document.querySelector('[data-testid="legal-accept"]'), 'the modal closes');
  });
  it('admin: switching to the privacy policy, the editors wait for its text (typing before it came was lost)', async () => {
    let answerPrivacy: (v: unknown) => void = () => undefined;
    const privacyArrives = new Promise((r) => (answerPrivacy = r));
    const PRIVACY = { ...TERMS, kind: 'privacy', version: 2, sv: '# Integritet v2', en: '# Privacy v2' };
    const { waitFor, container } = await page.render('/admin/settings/terms/', admin, {
      'GET /legal/versions/': (c) => {
        const privacy = (c.options?.queryParams as Record<string, string> | undefined)?.kind === 'privacy';
        return { status: 200, body: [summary(privacy ? PRIVACY : TERMS)] };
      },
      // The list has no texts: the editors start from the current text.
      'GET /public/terms/': () => ({ status: 200, body: TERMS }),
      'GET /public/privacy/': async () => {
        await privacyArrives;
        return { status: 200, body: PRIVACY };
      },
    });
    const sv = () => container.querySelector<HTMLTextAreaElement>('[data-testid="legal-edit-sv"]')!;
    await waitFor(() => sv()?.value === '# Villkor v3' && !sv().disabled, 'the terms in the editor');
    const privacy = container.querySelectorAll<HTMLElement>('.ant-segmented-item')[1];
    await act(async () => privacy.click());
    await waitFor(() => sv().disabled, 'the editor waits for the privacy policy');
    expect(container.querySelector('[data-testid="legal-publish"]')?.hasAttribute('disabled')).toBe(true);
    await act(async () => answerPrivacy(undefined));
    await waitFor(() => sv().value === '# Integritet v2' && !sv().disabled, 'the privacy policy in the editor');
    expect(container.querySelector('[data-testid="legal-publish"]')?.hasAttribute('disabled')).toBe(false);
  });

  it('admin: a text holds at most 100,000 characters a language, counted as the server counts them (an emoji is one)', async () => {
    const { waitFor, container } = await page.render('/admin/settings/terms/', admin, {
      'GET /legal/versions/': () => ({ status: 200, body: [summary(TERMS)] }),
      'GET /public/terms/': () => ({ status: 200, body: TERMS }),
    });
    const sv = () => container.querySelector<HTMLTextAreaElement>('[data-testid="legal-edit-sv"]')!;
    await waitFor(() => sv()?.value === '# Villkor v3' && !sv().disabled, 'the terms in the editor');
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
    await act(async () => {
      setter.call(sv(), '\u{1F600}'.repeat(LEGAL_TEXT_MAX_CHARS + 1));
      sv().dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitFor(() => [...sv().value].length === LEGAL_TEXT_MAX_CHARS, 'the text cut at the limit');
    expect(sv().value.length).toBe(2 * LEGAL_TEXT_MAX_CHARS);
    expect(LEGAL_TEXT_MAX_CHARS).toBe(100_000);
  });
});

describe('support and academy', { timeout: 180_000 }, () => {
  it('the customer sees its tickets with their status', async () => {
    const ticket = (id: number, subject: string, status: string) => ({
      id, customer_uid: 'cust-1', customer_name: 'Kund AB', case_uid: null, case_number: null, subject, message: 'm', attachment: null,
      status, created_by_name: 'Cee', created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z', answer_count: status === 'answered' ? 1 : 0,
    });
    const { waitFor, container } = await page.render('/user/support/', customer, {
      'GET /support/': () => ({ status: 200, body: { results: [ticket(2, 'Faktura', 'answered'), ticket(1, 'Inloggning', 'closed')], next: null } }),
      'GET /case/list/': () => ({ status: 200, body: { results: [], next: null } }),
    });
    await waitFor(() => container.querySelector('[data-testid="ticket-status-answered"]'), 'the answered ticket');
    expect(container.textContent).toContain('Faktura');
    expect(container.querySelector('[data-testid="ticket-status-closed"]')?.textContent).toBe('Closed');
    expect(container.querySelector('[data-testid="ticket-form"]')).not.toBeNull();
    const heads = [...container.querySelectorAll('[data-testid="ticket-table"] th')].map((th) => th.textContent);
    expect(heads).toContain('Case');
    expect(heads).not.toContain('Case (optional)');
  });

  it('a lawyer watches an embedded lesson and marks it completed', async () => {
    const lesson = {
      id: 'l1', topic: 'Ärenden', title: 'Tidrapportering', text: 'Text', video_url: 'https://player.vimeo.com/video/76979871', video_key: null,
      position: 1, published: true, audience: ['lawyer'], progress: { lesson_id: 'l1', watched: false, completed: false, updated_at: null }, video_file_url: null,
      en: null,
    };
    const { waitFor, container } = await page.render('/lawyer/freja-academy/', lawyer, {
      'GET /academy/': () => ({ status: 200, body: [{ topic: 'Ärenden', topic_en: null, lessons: [lesson] }] }),
      'POST /academy/l1/progress/': (c) => ({ status: 200, body: { lesson_id: 'l1', watched: true, completed: (c.options?.body as { completed?: boolean }).completed ?? false, updated_at: null } }),
    });
    const header = await waitFor(() => container.querySelector<HTMLElement>('.ant-collapse-header'), 'the lesson');
    await act(async () => header.click());
    const iframe = await waitFor(() => container.querySelector('iframe'), 'the player');
    expect(iframe.getAttribute('src')).toBe('https://player.vimeo.com/video/76979871');
    const box = await waitFor(() => container.querySelector<HTMLInputElement>('[data-testid="lesson-complete-l1"] input, input[data-testid="lesson-complete-l1"]'), 'the checkbox');
    await act(async () => box.click());
    await waitFor(() => calls('POST', '/academy/l1/progress/').some((c) => (c.options?.body as { completed?: boolean }).completed === true), 'completed sent');
  });

  it("an English reader sees a lesson's English version, and a lesson written in Swedish only marked as Swedish", async () => {
    const base = { video_url: null, video_key: null, published: true, audience: [], video_file_url: null };
    const progress = (id: string) => ({ lesson_id: id, watched: false, completed: false, updated_at: null });
    const both = { ...base, id: 'l1', position: 1, topic: 'Avtal', title: 'Grunder', text: 'Ett **avtal**', en: { topic: 'Contracts', title: 'Basics', text: 'A **contract**' }, progress: progress('l1') };
    const svOnly = { ...base, id: 'l2', position: 2, topic: 'Avtal', title: 'Uppsägning', text: 'Så **säger** du upp', en: null, progress: progress('l2') };
    const { waitFor, container } = await page.render('/lawyer/freja-academy/', lawyer, {
      'GET /academy/': () => ({ status: 200, body: [{ topic: 'Avtal', topic_en: 'Contracts', lessons: [both, svOnly] }] }),
    });
    const titles = await waitFor(() => {
      const t = [...container.querySelectorAll('[data-testid="lesson-title-text"]')].map((e) => `${e.textContent}/${e.getAttribute('lang')}`);
      return t.length === 2 ? t : null;
    }, 'the lessons');
    expect(titles).toEqual(['Basics/en', 'Uppsägning/sv']);
    expect(container.querySelector('[data-testid="academy-topic"] h2')?.textContent).toBe('Contracts');
    const tags = [...container.querySelectorAll('[data-testid="lesson-swedish-only"]')].map((e) => e.textContent);
    expect(tags).toEqual(['In Swedish']);
    const header = container.querySelector<HTMLElement>('.ant-collapse-header')!;
    await act(async () => header.click());
    const text = await waitFor(() => container.querySelector('[data-testid="lesson-l1"] strong'), 'the English text');
    expect(text.textContent).toBe('contract');
  });

  it('admin writes a lesson with its English version, and one in Swedish only (sent without an English version)', async () => {
    const saved = (c: { options?: { body?: unknown } }) => ({ status: 201, body: { id: `n${calls('POST', '/academy/lessons/').length}`, ...(c.options?.body as object) } });
    const { waitFor, click } = await page.render('/admin/freja-academy/', admin, {
      'GET /academy/': () => ({ status: 200, body: [] }),
      'POST /academy/lessons/': saved,
    });
    // The editor is a dialog, outside the page's container.
    const inDialog = (id: string) => waitFor(() => document.querySelector<HTMLElement>(`[data-testid="${id}"]`), id);
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    const write = async (fields: Record<string, string>) => {
      await click('lesson-create');
      for (const [id, v] of Object.entries(fields)) {
        const input = await inDialog(id);
        await act(async () => {
          setValue.call(input, v);
          input.dispatchEvent(new Event('input', { bubbles: true }));
        });
      }
      const save = await inDialog('lesson-save');
      await act(async () => save.click());
    };
    await write({ 'lesson-topic': 'Avtal', 'lesson-title': 'Grunder', 'lesson-topic-en': 'Contracts', 'lesson-title-en': 'Basics' });
    await waitFor(() => calls('POST', '/academy/lessons/').length === 1, 'the first lesson saved');
    expect(calls('POST', '/academy/lessons/')[0].options?.body).toMatchObject({ topic: 'Avtal', title: 'Grunder', en: { topic: 'Contracts', title: 'Basics', text: '' } });
    await waitFor(() => !document.querySelector('[data-testid="lesson-form"]'), 'the editor closes');
    await write({ 'lesson-topic': 'Avtal', 'lesson-title': 'Uppsägning' });
    await waitFor(() => calls('POST', '/academy/lessons/').length === 2, 'the second lesson saved');
    expect(calls('POST', '/academy/lessons/')[1].options?.body).toMatchObject({ title: 'Uppsägning', en: null });
  });
});
