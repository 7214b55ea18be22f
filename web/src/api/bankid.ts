import type { Auth } from '../types/session';
import { api } from './client';

/** How the app is started: the QR code on another device, or the autostart link on this one. */
export type BankIdDevice = 'qr' | 'this_device';

export interface BankIdStarted {
  order_ref: string;
  auto_start_token: string;
  qr_data: string;
  qr_data_next: string;
  poll_ms: number;
}

export interface BankIdProgress {
  status: 'pending' | 'failed' | 'complete';
  hint_code?: string;
  /** BankID's recommended message (`bankid_rfa*`), translated under `server.`. */
  message: string;
  qr_data?: string;
  qr_data_next?: string;
  auth?: Auth & { device_token?: string };
  linked?: boolean;
}

export interface BankIdLink {
  linked: boolean;
  personal_number?: string;
}

const quiet = { suppressError: [400, 401, 404, 429, 502] };

/** POST /api/bankid/auth/ — start signing in (the order's cookie is HttpOnly: the browser keeps it). */
export function startBankIdLogin(device: BankIdDevice): Promise<BankIdStarted> {
  return api.post<BankIdStarted>('/bankid/auth/', { device }, { anonymous: true, ...quiet });
}

/** POST /api/bankid/link/ — start linking BankID to the signed-in account. */
export function startBankIdLink(device: BankIdDevice): Promise<BankIdStarted> {
  return api.post<BankIdStarted>('/bankid/link/', { device }, quiet);
}

/** POST /api/bankid/collect/ — the order's state; `signedIn` sends the bearer token (a link). */
export function collectBankId(orderRef: string, signedIn: boolean): Promise<BankIdProgress> {
  return api.post<BankIdProgress>('/bankid/collect/', { order_ref: orderRef }, { anonymous: !signedIn, ...quiet });
}

/** POST /api/bankid/cancel/ — never shows an error (the user is leaving). */
export function cancelBankId(orderRef: string, signedIn: boolean): Promise<unknown> {
  return api.post('/bankid/cancel/', { order_ref: orderRef }, { anonymous: !signedIn, suppressError: true });
}

export function getBankIdLink(): Promise<BankIdLink> {
  return api.get<BankIdLink>('/bankid/link/');
}

export function unlinkBankId(): Promise<unknown> {
  return api.del('/bankid/link/', { suppressError: [400] });
}

/** The app on this device: BankID's autostart link (no return URL: the page keeps polling). */
export function autostartLink(token: string): string {
  return `bankid:///?autostarttoken=${encodeURIComponent(token)}&redirect=null`;
}

/** Phones and tablets start the app here; computers show the QR code. */
export function deviceOf(userAgent: string): BankIdDevice {
  return /Android|iPhone|iPad|iPod|Mobile/i.test(userAgent) ? 'this_device' : 'qr';
}
