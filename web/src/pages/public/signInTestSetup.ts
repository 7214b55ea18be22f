/**
 * What the sign-in page tests share (the login page's, the code screen's): the stores they read,
 * the customer the API signs in, the pages signed out, and the check that a code completed the
 * sign-in. Import it with `await import` after the file's amplify mocks, so the app it loads
 * talks to the fake API.
 */
import { expect, vi } from 'vitest';
import { pageTests, TEST_AUTH, type Rendered } from '../../test/renderApp';
import * as session from '../../store/session';
import * as twoFactor from '../../store/twoFactor';

export { session, twoFactor };
export const auth = TEST_AUTH;
export const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee' };

/** The pages signed out; call it where the hooks belong (the file, or its describe). */
export function signedOutPages() {
  const warning = vi.fn();
  const page = pageTests({ warning });
  return { warning, page, render: (path: string) => page.render(path, null) };
}

/** Sends the code form; the sign-in completes: at /user/, signed in, no challenge left pending. */
export async function submitCodeSignsIn({ click, waitFor, path }: Pick<Rendered, 'click' | 'waitFor' | 'path'>) {
  await click('twofa-submit');
  await waitFor(() => path() === '/user/', '/user/');
  expect(session.getState().auth).toEqual(auth);
  expect(twoFactor.getPendingTwoFactor()).toBeNull();
}
