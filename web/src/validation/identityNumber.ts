/**
 * Swedish organisationsnummer / personnummer as typed on a form (the
 * server's `domain::conflict::parse_identity_number`): 10 digits, or 12 with
 * the century (16, 18, 19, 20), with or without a dash (or a plus) before
 * the last four, and a right Luhn check digit.
 */
export function normalizeIdentityNumber(raw: string): string | null {
  const t = raw.trim();
  const m = /^(\d{2})?(\d{6})[-+]?(\d{4})$/.exec(t);
  if (!m) return null;
  if (m[1] && !['16', '18', '19', '20'].includes(m[1])) return null;
  const ten = m[2] + m[3];
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    let d = Number(ten[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return sum % 10 === 0 ? `${m[2]}-${m[3]}` : null;
}

/** Empty (the number is optional) or a valid number. */
export function isValidIdentityNumber(raw: string | null | undefined): boolean {
  const t = (raw ?? '').trim();
  return t === '' || normalizeIdentityNumber(t) !== null;
}
