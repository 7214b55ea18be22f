/** Session user as served by GET /api/profile/ (spec §3). */

import type { components } from './api.gen';

type Schemas = components['schemas'];
export type SessionUser = Schemas['SessionUser'];

/** Token pair as served by POST /api/token/ and /api/token/refresh/. */
export interface Auth {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  /** On a completed sign-in only: this browser's device token (kept apart, see store/deviceTokens). */
  device_token?: string;
}
