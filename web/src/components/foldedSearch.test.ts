import { describe, expect, it } from 'vitest';
import { foldedFilter } from './foldedSearch';

describe('foldedFilter', () => {
  const opt = (label: string) => ({ label });
  it('ignores case and Swedish accents', () => {
    expect(foldedFilter('hyresratt', opt('Hyresrätt'))).toBe(true);
    expect(foldedFilter('ÖSTER', opt('Östersund tvist'))).toBe(true);
    expect(foldedFilter('arv', opt('Familjerätt och arv'))).toBe(true);
  });
  it('needs every word, in any order', () => {
    expect(foldedFilter('arv familj', opt('Familjerätt och arv'))).toBe(true);
    expect(foldedFilter('arv skatt', opt('Familjerätt och arv'))).toBe(false);
  });
  it('an empty search keeps everything; a missing label matches nothing typed', () => {
    expect(foldedFilter('  ', opt('Anything'))).toBe(true);
    expect(foldedFilter('x', undefined)).toBe(false);
  });
});
