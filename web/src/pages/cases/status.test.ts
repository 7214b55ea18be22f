import { describe, expect, it } from 'vitest';
import { caseStatusChip, formatHours, parseHours } from './status';

describe('caseStatusChip (spec §4)', () => {
  it('maps every status to its label and colour', () => {
    expect(caseStatusChip('Waiting')).toEqual({ labelKey: 'status.available', color: 'orange' });
    expect(caseStatusChip('Inprogress')).toEqual({ labelKey: 'status.active', color: 'blue' });
    expect(caseStatusChip('Complete')).toEqual({ labelKey: 'status.closed', color: 'default' });
    expect(caseStatusChip('Draft')).toEqual({ labelKey: 'status.pending', color: 'red' });
    expect(caseStatusChip('Withdrawn')).toEqual({ labelKey: 'status.withdrawn', color: 'default' });
  });
  it('shows N/A for anything else', () => {
    for (const s of ['', 'Other', null, undefined]) expect(caseStatusChip(s).labelKey).toBe('status.na');
  });
  it('reads the stored word in any case (history carries it)', () => {
    expect(caseStatusChip('waiting').labelKey).toBe('status.available');
    expect(caseStatusChip('INPROGRESS').labelKey).toBe('status.active');
  });
});

describe('hours with a comma decimal', () => {
  it('parses comma and dot, refuses the rest', () => {
    expect(parseHours('1,5')).toBe(1.5);
    expect(parseHours('0.25')).toBe(0.25);
    expect(parseHours('2')).toBe(2);
    expect(parseHours('1,555')).toBeNull();
    expect(parseHours('-1')).toBeNull();
    expect(parseHours('abc')).toBeNull();
    expect(parseHours('')).toBeNull();
  });
  it('formats by the language', () => {
    expect(formatHours(1.5, 'sv')).toBe('1,5');
    expect(formatHours(1.5, 'en')).toBe('1.5');
  });

  it("prefills hours with the reader's decimal", async () => {
    const { hoursInput } = await import('./status');
    expect(hoursInput(1.5, 'sv')).toBe('1,5');
    expect(hoursInput(1.5, 'en')).toBe('1.5');
    expect(hoursInput(null, 'en')).toBe('');
  });
});
