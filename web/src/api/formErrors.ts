/**
 * Server errors on forms. Every API error body is
 * {"status", "message": "<key>", "errors": {"<field>": ["<key>", ...]}}; the
 * keys are translated under the `server` namespace. Per-field keys go onto the
 * antd Form fields of the same name (or an alias); what belongs to no field of
 * the form is returned for an Alert.
 */
import type { FormInstance } from 'antd';
import i18n, { translateServerMessage } from '../i18n';
import { ApiError } from './errors';
import { revealField } from '../components/reveal';

export interface ServerFormErrors {
  /** Translated errors for fields of the form, ready for `form.setFields`. */
  fields: Array<{ name: string; errors: string[] }>;
  /** Translated messages that belong to no field of the form. */
  other: string[];
}

/** Summary keys that say nothing more than the field errors next to them. */
const GENERIC_MESSAGES = new Set(['validation_failed', 'bad_request']);

/** Field names that carry form-wide messages. */
const NON_FIELD_KEYS = new Set(['non_field_errors', 'detail', '__all__']);

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * Split an API error into per-field errors for the given form fields and the
 * remaining messages. `aliases` maps a server field name to a form field name
 * (e.g. {password: 'new_password'}). Anything but an ApiError gives nothing.
 */
export function splitServerErrors(
  err: unknown,
  formFields: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): ServerFormErrors {
  if (!(err instanceof ApiError)) return { fields: [], other: [] };
  const byField = new Map<string, string[]>();
  const fieldKeys = new Set<string>();
  const other: string[] = [];

  for (const [serverField, keys] of Object.entries(err.fieldErrors)) {
    const name = aliases[serverField] ?? serverField;
    keys.forEach((k) => fieldKeys.add(k));
    const texts = keys.map(translateServerMessage);
    if (!NON_FIELD_KEYS.has(serverField) && formFields.includes(name)) {
      byField.set(name, [...(byField.get(name) ?? []), ...texts]);
    } else {
      other.push(...texts);
    }
  }

  const message = typeof err.body?.message === 'string' ? err.body.message.trim() : '';
  if (message && !GENERIC_MESSAGES.has(message) && !fieldKeys.has(message)) {
    other.unshift(translateServerMessage(message));
  } else if (message && byField.size === 0 && other.length === 0) {
    other.push(translateServerMessage(message));
  }

  return {
    fields: [...byField.entries()].map(([name, errors]) => ({ name, errors: unique(errors) })),
    other: unique(other),
  };
}

/** Every translated message of an API error (no field mapping), e.g. for an inline Alert. */
export function serverMessages(err: unknown): string[] {
  return splitServerErrors(err, []).other;
}

/** True for an ApiError with one of `statuses` (the ones a form shows inline rather than as a notification). */
export function isInlineError(err: unknown, statuses: readonly number[] = [400, 429]): err is ApiError {
  return err instanceof ApiError && statuses.includes(err.status);
}

/**
 * Put the server's field errors on the form and return the messages left for
 * an Alert. When the error holds nothing usable, that is one generic line.
 */
export function applyServerErrors(
  form: Pick<FormInstance, 'setFields'> & Partial<Pick<FormInstance, 'scrollToField'>>,
  err: unknown,
  formFields: readonly string[],
  aliases?: Readonly<Record<string, string>>,
): string[] {
  const { fields, other } = splitServerErrors(err, formFields, aliases);
  if (fields.length) {
    form.setFields(fields);
    revealField(form, fields.map((f) => f.name));
  }
  if (!fields.length && !other.length) return [i18n.t('badRequestMessage', { ns: 'errors' })];
  return other;
}
