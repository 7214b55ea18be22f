import { expect } from 'vitest';
import type { RootState } from '../store/session';

/** The session after a sign-out or a failed refresh: no tokens, no user, no remembered route, no service tokens. */
export function expectSignedOut(s: RootState): void {
  expect(s.auth).toBeNull();
  expect(s.user).toBeNull();
  expect(s.utilities.initialRoute).toBeNull();
  expect(s.services.token).toBeNull();
  expect(s.verified).toBeNull();
}
