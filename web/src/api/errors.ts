/**
 * Failed calls: the server's error body and the ApiError a failed call
 * rejects with. The spec §8 warning is the UI's (layout/errorNotification.ts),
 * registered on the client with `onApiError`.
 */

/** Error body served by the API for every failure: {status, message, errors}. */
export interface ApiErrorBody {
  status?: number;
  message?: string;
  errors?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What a failed call rejects with (errors are returned to the caller, spec §8). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody | null;

  constructor(status: number, body: ApiErrorBody | null) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** Per-field error keys, e.g. {email: ['required']}. */
  get fieldErrors(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [field, value] of Object.entries(this.body?.errors ?? {})) {
      out[field] = flattenMessages(value);
    }
    return out;
  }
}

/** Every message in an error value (strings, numbers, nested arrays and objects), in order. */
export function flattenMessages(value: unknown): string[] {
  if (value == null) return [];
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(flattenMessages);
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).flatMap(flattenMessages);
  return [];
}
