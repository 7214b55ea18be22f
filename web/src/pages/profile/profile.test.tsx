import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const session = await import('../../store/session');

type Rendered = import('../../test/renderApp').Rendered;

const lawyer = {
  email: 'l@example.com',
  id: 3,
  is_staff: false,
  user_type: 1,
  full_name: 'Lars van Lag',
  first_name: 'Lars',
  last_name: 'van Lag',
  phone: '08-123 456 78',
  uid: 'law-1',
  image: 'not set',
};
const IMAGE_URL = 'http://s3.local/bucket/profile-images/law-1/x.png?X-Amz-Signature=abc';
const warning = vi.fn();
const page = pageTests({ warning });

/** Signed in as `user`; the profile answer is the stored user (it follows updates). */
function render(path: string, user: object = lawyer) {
  return page.render(path, user, {
    'GET /profile/': () => ({ status: 200, body: session.getState().user }),
    'GET /profile/mail/': () => ({ status: 200, body: { on: true, language: 'sv' } }),
  });
}

async function chooseFile(r: Rendered, file: File) {
  const input = await r.waitFor(() => r.container.querySelector<HTMLInputElement>('input[type="file"]'), 'file input');
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('profile page', { timeout: 180_000 }, () => {
  beforeEach(() => {
    vi.unstubAllGlobals();
  });

  it('the header avatar shows the initial while the image is "not set"', async () => {
    const r = await render('/lawyer/profile/');
    const avatar = await r.waitFor(() => r.$('header-avatar'), 'avatar');
    expect(avatar.dataset.hasImage).toBe('false');
    expect(avatar.textContent).toBe('L');
    expect(avatar.querySelector('img')).toBeNull();
  });

  it('shows and saves names and phone; the session user follows', async () => {
    const r = await render('/lawyer/profile/');
    await r.waitFor(() => (r.$('profile-last-name') as HTMLInputElement | null)?.value === 'van Lag', 'prefilled');
    expect((r.$('profile-phone') as HTMLInputElement).value).toBe('08-123 456 78');
    await r.type('profile-first-name', 'Lasse');
    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'PUT', path: '/profile/update/', options: { body: { first_name: 'Lasse', last_name: 'van Lag', phone: '08-123 456 78' } } });
      return { status: 200, body: { ...lawyer, first_name: 'Lasse', full_name: 'Lasse van Lag' } };
    });
    await r.click('profile-submit');
    await r.waitFor(() => r.$('profile-success'), 'saved');
    // the stored session user (header, menus) follows
    expect(session.getState().user?.full_name).toBe('Lasse van Lag');
  });

  it('uploads through the presigned URL, confirms, and the header avatar shows the image', async () => {
    const put = vi.fn(async () => new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', put);
    const r = await render('/lawyer/profile/');
    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'POST', path: '/profile/image/upload-url/', options: { body: { content_type: 'image/png' } } });
      return { status: 200, body: { url: 'http://s3.local/put-here', key: 'profile-images/law-1/x.png', content_type: 'image/png', max_bytes: 2097152 } };
    });
    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'POST', path: '/profile/image/confirm/', options: { body: { key: 'profile-images/law-1/x.png' } } });
      return { status: 200, body: { ...lawyer, image: IMAGE_URL } };
    });
    await chooseFile(r, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' }));
    await r.waitFor(() => r.$('profile-success'), 'image saved');
    expect(put).toHaveBeenCalledTimes(1);
    const [url, init] = put.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://s3.local/put-here');
    expect(init.method).toBe('PUT');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('image/png');
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
    const avatar = r.$('header-avatar')!;
    await r.waitFor(() => avatar.querySelector('img'), 'avatar image');
    expect(avatar.querySelector('img')!.getAttribute('src')).toBe(IMAGE_URL);
  });

  it('refuses other file types and files over 2 MB before any call; a server refusal is shown', async () => {
    const put = vi.fn(async () => new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', put);
    const r = await render('/lawyer/profile/');
    await chooseFile(r, new File(['GIF89a'], 'me.gif', { type: 'image/gif' }));
    await r.waitFor(() => r.$('profile-error'), 'type error');
    expect(r.$('profile-error')!.textContent).toContain('Only JPG and PNG');
    await chooseFile(r, new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' }));
    await r.waitFor(() => r.$('profile-error')?.textContent?.includes('larger than 2 MB'), 'size error');
    expect(fake.calls.some((c) => c.path.startsWith('/profile/image/'))).toBe(false);

    fake.replies.push(() => ({ status: 200, body: { url: 'http://s3.local/put-here', key: 'k', content_type: 'image/jpeg', max_bytes: 2097152 } }));
    fake.replies.push(() => ({ status: 400, body: { status: 400, message: 'image_invalid', errors: {} } }));
    await chooseFile(r, new File(['not really'], 'fake.jpg', { type: 'image/jpeg' }));
    await r.waitFor(() => r.$('profile-error')?.textContent?.includes('not a JPG or PNG'), 'server refusal');
    expect(session.getState().user?.image).toBe('not set');
  });

  it('mail when something happens: on by default, turned off and saved with its language', async () => {
    const r = await render('/lawyer/profile/');
    const toggle = await r.waitFor(() => r.$('profile-mail-on'), 'mail switch');
    await r.waitFor(() => toggle.getAttribute('aria-checked') === 'true' && !toggle.hasAttribute('disabled'), 'on by default');
    expect(r.$('profile-mail')!.textContent).toContain('At most one mail per case every 15 minutes');
    await act(async () => {
      toggle.click();
    });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'PUT', path: '/profile/mail/', options: { body: { on: false, language: 'sv' } } });
      return { status: 200, body: { on: false, language: 'sv' } };
    });
    await r.click('profile-mail-save');
    await r.waitFor(() => r.$('profile-mail-success'), 'saved');
    expect(r.$('profile-mail-success')!.textContent).toContain('Your mail setting has been saved.');
  });

  it('admin has no profile page', async () => {
    const r = await render('/admin/profile/', { email: 'a@example.com', id: 1, is_staff: true, full_name: 'Ada', image: 'not set' });
    await r.waitFor(() => r.container.textContent?.includes('Page Not Found') || r.container.textContent?.includes('not found'), 'not found');
    expect(r.$('profile-page')).toBeNull();
  });
});
