/**
 * Client-side search for short catalogue dropdowns (case types, sectors):
 * case- and accent-insensitive, so 'hyresratt' finds 'Hyresrätt' and
 * 'ostersund' finds 'Östersund'; every typed word must occur in the label.
 */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}

export function foldedFilter(input: string, option?: { label?: unknown }): boolean {
  const label = fold(String(option?.label ?? ''));
  return fold(input)
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => label.includes(w));
}

/** `showSearch` for an antd Select over local options. */
export const FOLDED_SEARCH = { filterOption: foldedFilter };
