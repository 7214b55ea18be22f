import { beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_TOKENS_STORAGE_KEY } from '../config/constants';
import { MAX_DEVICE_TOKENS, getDeviceToken, rememberDeviceToken } from './deviceTokens';

describe('device tokens', () => {
  beforeEach(() => localStorage.clear());

  it('are kept per address, case and spaces aside', () => {
    rememberDeviceToken('Anna@Example.com', 't1');
    expect(getDeviceToken(' anna@example.com ')).toBe('t1');
    expect(getDeviceToken('bo@example.com')).toBeUndefined();
    rememberDeviceToken('anna@example.com', 't2');
    expect(getDeviceToken('anna@example.com')).toBe('t2');
  });

  it('keep only the newest few addresses', () => {
    for (let i = 0; i < MAX_DEVICE_TOKENS + 2; i++) rememberDeviceToken(`u${i}@example.com`, `t${i}`, 1000 + i);
    expect(getDeviceToken('u0@example.com')).toBeUndefined();
    expect(getDeviceToken('u1@example.com')).toBeUndefined();
    expect(getDeviceToken(`u${MAX_DEVICE_TOKENS + 1}@example.com`)).toBe(`t${MAX_DEVICE_TOKENS + 1}`);
  });

  it('ignore broken storage', () => {
    localStorage.setItem(DEVICE_TOKENS_STORAGE_KEY, '{not json');
    expect(getDeviceToken('a@example.com')).toBeUndefined();
    localStorage.setItem(DEVICE_TOKENS_STORAGE_KEY, JSON.stringify({ 'a@example.com': { token: 5 } }));
    expect(getDeviceToken('a@example.com')).toBeUndefined();
    rememberDeviceToken('a@example.com', 'ok');
    expect(getDeviceToken('a@example.com')).toBe('ok');
  });
});
