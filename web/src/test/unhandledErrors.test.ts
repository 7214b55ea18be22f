// @vitest-environment node
/**
 * vite.config.ts `test.onUnhandledError` lets pass only React DOM's late
 * scheduler task after a file's teardown ("window is not defined" thrown in
 * react-dom-client, run by the scheduler); any other unhandled error still
 * fails the run.
 */
import { expect, test } from 'vitest';
import config from '../../vite.config';

const filter = (config as unknown as { test: { onUnhandledError: (e: unknown) => unknown } }).test.onUnhandledError;
const error = (name: string, message: string, frames: string[]) =>
  Object.assign(new Error(message), { name, stack: [`${name}: ${message}`, ...frames.map((f) => `    at ${f}`)].join('\n') });

const reactDom = '/app/node_modules/react-dom/cjs/react-dom-client.development.js:19555:13';
const scheduler = 'Immediate.performWorkUntilDeadline (/app/node_modules/scheduler/cjs/scheduler.development.js:45:48)';

test('React DOM running a queued task after the teardown is let pass', () => {
  expect(filter(error('ReferenceError', 'window is not defined', [reactDom, scheduler]))).toBe(false);
  expect(filter(error('ReferenceError', 'window is not defined', [`performWorkOnRootViaSchedulerTask (${reactDom})`, scheduler]))).toBe(false);
});

test('any other unhandled error fails the run', () => {
  expect(filter(error('ReferenceError', 'window is not defined', ['Page (/app/src/pages/x.tsx:1:1)', reactDom, scheduler]))).toBeUndefined();
  expect(filter(error('ReferenceError', 'window is not defined', [reactDom]))).toBeUndefined();
  expect(filter(error('ReferenceError', 'document is not defined', [reactDom, scheduler]))).toBeUndefined();
  expect(filter(error('TypeError', 'x is undefined', [reactDom, scheduler]))).toBeUndefined();
});
