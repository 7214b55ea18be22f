/** Sign-in, two-factor and password DTOs of the API (spec §3 Auth, §4 two-factor). */

import type { components } from './api.gen';

type Schemas = components['schemas'];


/** POST /api/token/ when the user has two-factor on: a code was e-mailed. */
export interface TwoFactorChallenge {
  two_factor_required: true;
  /** Opaque, short-lived proof of the password step; sent back with the code. */
  two_factor_token: string;
  /** 'email' (a code was mailed) or 'totp' (the authenticator app's code; nothing mailed) */
  method: string;
}

/** POST /api/resend/2fa/: a new code was sent; the new token replaces the old one. */
export type CodeSent = Schemas['CodeSent'];

export interface MessageResponse {
  message: string;
}

export type TwoFactorMethod = 'email' | 'totp';

export type TwoFactorStatus = Schemas['TwoFactorStatus'];

/** POST /api/2fa/totp/setup/: a pending secret for the authenticator app. */
export interface TotpSetup {
  otpauth_uri: string;
  /** Base32, for typing in by hand. */
  secret: string;
}

/** POST /api/2fa/totp/confirm/: the recovery codes (shown once) and new tokens for this session. */
export type TotpConfirmed = Schemas['TotpConfirmed'];

export interface ChangePasswordInput {
  old_password: string;
  new_password: string;
  confirm_password: string;
}

export interface ConfirmRecoveryInput {
  token: string;
  password: string;
  confirm_password: string;
}
