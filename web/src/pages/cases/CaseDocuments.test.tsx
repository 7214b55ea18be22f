import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, type FakeCall } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { browser, checkDocument } = await import('../../api/caseDocuments');

type Rendered = import('../../test/renderApp').Rendered;
const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee Kund', uid: 'cust-1', image: 'not set' };
const lawyer = { email: 'l@example.com', id: 9, is_staff: false, user_type: 1, full_name: 'Lars Jurist', uid: 'law-1', image: 'not set' };
const hourRow = { id: 5, service: { id: 1, name: 'Consultancy' }, active: true, expired: false, hour: 10, consumed_hour: 0 };

const { areaRoutes, sampleDetails } = await import('./fixtures');
const baseCase = sampleDetails({ address: { address_1: '', city: '', country: '', post_code: '' }, counterpart: '' });

const doc = (name: string, can_remove: boolean, by = 'Cee Kund') => ({
  key: `cases/case-1/${name}.key`,
  name,
  size: 2048,
  uploaded_by: 'x',
  uploaded_by_name: by,
  uploaded_at: '2026-11-23T10:00:00Z',
  can_remove,
});
const list = (files: unknown[], can_manage = true) => ({ files, can_manage, max_files: 20, max_bytes: 25 * 1024 * 1024, extensions: ['pdf'] });

const warning = vi.fn();

const page = pageTests({ warning });

function render(path: string, user: object, services: unknown[] = []) {
  return page.render(path, user, {
    ...areaRoutes(services),
    'GET /case/case-1/': () => ({ status: 200, body: baseCase }),
    'GET /case/hour/list/': () => ({ status: 200, body: [] }),
  });
}

async function chooseFiles(r: Rendered, container: string, files: File[]) {
  const input = await r.waitFor(() => r.container.querySelector<HTMLInputElement>(`[data-testid="${container}"] input[type="file"]`), 'file input');
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const pdf = (name = 'Hyresavtal.pdf') => new File(['%PDF-1.4 test'], name, { type: 'application/pdf' });
const calls = (path: string) => fake.calls.filter((c: FakeCall) => c.path === path);

/** Standing replies for a working upload: upload-url, PUT (fetch), confirm. */
function acceptUploads(put: ReturnType<typeof vi.fn>) {
  vi.stubGlobal('fetch', put);
  fake.routes.set('POST /case/file/upload-url/', (c) => {
    const name = (c.options?.body as { name: string }).name;
    return { status: 200, body: { url: `http://s3.local/put/${name}`, key: `cases/case-1/${name}.key`, content_type: 'application/pdf', name, max_bytes: 1 } };
  });
  fake.routes.set('POST /case/file/confirm/', (c) => ({ status: 201, body: { ...doc((c.options?.body as { name: string }).name, true) } }));
}

describe('case documents', { timeout: 180_000 }, () => {
  beforeEach(() => {
    vi.unstubAllGlobals();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('the client check follows the spec types and the 25 MB limit', () => {
    expect(checkDocument({ name: 'a.PDF', size: 1 })).toBeNull();
    for (const n of ['a.docx', 'a.doc', 'a.xls', 'a.xlsx', 'a.ppt', 'a.pptx', 'a.jpg', 'a.jpeg', 'a.png']) expect(checkDocument({ name: n, size: 1 })).toBeNull();
    for (const n of ['a.exe', 'a.gif', 'pdf', 'a.txt']) expect(checkDocument({ name: n, size: 1 })).toBe('wrongType');
    expect(checkDocument({ name: 'a.pdf', size: 0 })).toBe('empty_file');
    expect(checkDocument({ name: 'a.pdf', size: 25 * 1024 * 1024 })).toBeNull();
    expect(checkDocument({ name: 'a.pdf', size: 25 * 1024 * 1024 + 1 })).toBe('tooLarge');
  });

  it('lists documents, downloads through the presigned URL and deletes after confirmation', async () => {
    let files = [doc('Avtal.pdf', true), doc('Yttrande.docx', false, 'Lars Jurist')];
    fake.routes.set('GET /case/file/list/', () => ({ status: 200, body: list(files) }));
    fake.routes.set('GET /case/file/download/', () => ({ status: 200, body: { url: 'http://s3.local/get?sig=1', name: 'Avtal.pdf' } }));
    fake.routes.set('DELETE /case/file/delete/', () => {
      files = files.slice(1);
      return { status: 204 };
    });
    const open = vi.spyOn(browser, 'open').mockImplementation(() => undefined);
    const r = await render('/user/cases/details/case-1', customer);
    await r.waitFor(() => r.$('case-document-download-Avtal.pdf'), 'document rows');
    const names = [...r.container.querySelectorAll('[data-testid="case-document-name"]')].map((e) => e.textContent);
    expect(names).toEqual(['Avtal.pdf', 'Yttrande.docx']);
    expect(r.$('case-documents')!.textContent).toContain('2 kB');
    // Only what the server says may be removed shows a delete button.
    expect(r.$('case-document-delete-Yttrande.docx')).toBeNull();

    await r.click('case-document-download-Avtal.pdf');
    await r.waitFor(() => open.mock.calls.length > 0, 'download opened');
    expect(open).toHaveBeenCalledWith('http://s3.local/get?sig=1');
    expect(calls('/case/file/download/')[0].options?.queryParams).toEqual({ case: 'case-1', key: 'cases/case-1/Avtal.pdf.key' });

    await r.click('case-document-delete-Avtal.pdf');
    const ok = await r.waitFor(() => document.querySelector<HTMLElement>('[data-testid="case-document-delete-confirm"]'), 'confirmation');
    expect(calls('/case/file/delete/')).toHaveLength(0);
    await act(async () => ok.click());
    await r.waitFor(() => !r.$('case-document-download-Avtal.pdf'), 'row gone');
    expect(calls('/case/file/delete/')[0].options?.queryParams).toEqual({ case: 'case-1', key: 'cases/case-1/Avtal.pdf.key' });
  });

  it('uploads through the presigned URL; wrong types and large files are refused before any call; a server refusal is translated', async () => {
    const put = vi.fn(async () => new Response(null, { status: 200 }));
    acceptUploads(put);
    fake.routes.set('GET /case/file/list/', () => ({ status: 200, body: list([]) }));
    const r = await render('/user/cases/details/case-1', customer);
    await r.waitFor(() => r.$('case-documents-upload-button'), 'upload button');

    await chooseFiles(r, 'case-documents-upload', [new File(['MZ'], 'setup.exe'), new File([new Uint8Array(25 * 1024 * 1024 + 1)], 'big.pdf')]);
    await r.waitFor(() => r.$('case-documents-errors')?.textContent?.includes('larger than 25 MB'), 'size error');
    expect(r.$('case-documents-errors')!.textContent).toContain('setup.exe: only PDF, Word, Excel, PowerPoint, JPG and PNG');
    expect(fake.calls.some((c) => c.path.startsWith('/case/file/upload'))).toBe(false);
    expect(put).not.toHaveBeenCalled();

    await chooseFiles(r, 'case-documents-upload', [pdf()]);
    await r.waitFor(() => r.$('case-documents-success'), 'uploaded');
    expect(calls('/case/file/upload-url/')[0].options?.body).toEqual({ case_uid: 'case-1', name: 'Hyresavtal.pdf' });
    const [url, init] = put.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://s3.local/put/Hyresavtal.pdf');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/pdf');
    expect(calls('/case/file/confirm/')[0].options?.body).toEqual({ case_uid: 'case-1', key: 'cases/case-1/Hyresavtal.pdf.key', name: 'Hyresavtal.pdf' });
    expect(r.$('case-documents-errors')).toBeNull();

    // The server looks at the bytes: a refusal comes back translated, inline, without the global warning.
    fake.routes.set('POST /case/file/confirm/', () => ({ status: 400, body: { status: 400, message: 'document_type_not_allowed', errors: {} } }));
    await chooseFiles(r, 'case-documents-upload', [pdf('fake.pdf')]);
    await r.waitFor(() => r.$('case-documents-errors'), 'server refusal');
    expect(r.$('case-documents-errors')!.textContent).toContain("fake.pdf: Only PDF, Word, Excel, PowerPoint, JPG and PNG can be uploaded, and the file's content must match its type.");
    expect(warning).not.toHaveBeenCalled();
  });

  it('who may not add documents sees no upload button', async () => {
    fake.routes.set('GET /case/file/list/', () => ({ status: 200, body: list([doc('Avtal.pdf', false)], false) }));
    const r = await render('/lawyer/cases/details/case-1', lawyer);
    await r.waitFor(() => r.$('case-document-download-Avtal.pdf'), 'rows');
    expect(r.$('case-documents-upload-button')).toBeNull();
    expect(r.$('case-document-delete-Avtal.pdf')).toBeNull();
  });

  it('the customer creates a case with documents: uploaded after creation, a refused one shown on the details page', async () => {
    const put = vi.fn(async () => new Response(null, { status: 200 }));
    acceptUploads(put);
    fake.routes.set('POST /case/file/confirm/', (c) => {
      const name = (c.options?.body as { name: string }).name;
      return name === 'fake.pdf'
        ? { status: 400, body: { status: 400, message: 'document_type_not_allowed', errors: {} } }
        : { status: 201, body: doc(name, true) };
    });
    fake.routes.set('GET /typeofcase/list/', () => ({ status: 200, body: [{ id: 1, name: 'Tenancy' }] }));
    fake.routes.set('POST /case/create/by/customer/', () => ({ status: 201, body: baseCase }));
    fake.routes.set('GET /case/file/list/', () => ({ status: 200, body: list([doc('Hyresavtal.pdf', true)]) }));
    const r = await render('/user/cases/create/', customer, [hourRow]);
    await r.waitFor(() => r.$('case-form-documents'), 'picker');

    await chooseFiles(r, 'case-form-documents', [new File(['x'], 'virus.exe')]);
    await r.waitFor(() => r.$('case-form-documents-errors'), 'picker refusal');
    await chooseFiles(r, 'case-form-documents', [pdf(), pdf('fake.pdf')]);
    await r.waitFor(() => r.container.textContent?.includes('fake.pdf'), 'picked files listed');
    expect(r.$('case-form-documents-errors')).toBeNull();
    // Nothing is uploaded before the case exists.
    expect(fake.calls.some((c) => c.path.startsWith('/case/file/'))).toBe(false);

    await r.type('case-subject', 'Lease dispute');
    await r.type('case-hours', '2,5');
    const area = r.container.querySelector<HTMLTextAreaElement>('[data-testid="case-description"]')!;
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
    await act(async () => {
      setter.call(area, 'Rent');
      area.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const select = r.container.querySelector<HTMLElement>('[data-testid="case-type"]')!.closest('.ant-select')!;
    await act(async () => {
      select.querySelector('.ant-select-selector, .ant-select-content, input')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    const option = await r.waitFor(() => document.querySelector<HTMLElement>('.ant-select-item-option'), 'type option');
    await act(async () => option.click());
    await r.click('case-submit');

    await r.waitFor(() => r.path() === '/user/cases/details/case-1', 'details page', 8000);
    const order = fake.calls.filter((c) => c.method === 'POST').map((c) => `${c.path}${c.path === '/case/file/confirm/' ? ` ${(c.options?.body as { name: string }).name}` : ''}`);
    expect(order).toEqual([
      '/case/create/by/customer/',
      '/case/file/upload-url/',
      '/case/file/confirm/ Hyresavtal.pdf',
      '/case/file/upload-url/',
      '/case/file/confirm/ fake.pdf',
    ]);
    expect(put).toHaveBeenCalledTimes(2);
    const errors = await r.waitFor(() => r.$('case-documents-errors'), 'errors on the details page');
    expect(errors.textContent).toContain('The case was created, but some documents were not added');
    expect(errors.textContent).toContain('fake.pdf: Only PDF');
    await r.waitFor(() => r.$('case-document-download-Hyresavtal.pdf'), 'the added one is listed');
  });
});
