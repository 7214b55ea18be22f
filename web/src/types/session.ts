/** Session user as served by GET /api/profile/ (spec §3). */
export interface SessionUser {
  email: string;
  id: number | string;
  customer_id?: number | string | null;
  company_id?: number | string | null;
  is_staff: boolean;
  is_superuser?: boolean;
  user_sub_type?: string | number | null;
  user_type?: number | string | null;
  username?: string;
  full_name?: string;
  profile_id?: number | string | null;
  image?: string | null;
  uid?: string;
  /** Shown and edited on the profile page. */
  phone?: string | null;
  first_name?: string;
  last_name?: string;
}

/** Token pair as served by POST /api/token/ and /api/token/refresh/. */
export interface Auth {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  /** On a completed sign-in only: this browser's device token (kept apart, see store/deviceTokens). */
  device_token?: string;
}
