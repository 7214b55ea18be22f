/**
 * The teardown leaves React no root to work in (roots.ts, setup.ts): a root a test left mounted and the roots antd
 * draws its global notices in are recorded and unmounted, their effects cleaned up. No unhandled error is let pass at
 * a file's end (vite.config.ts filters none), so a root left mounted that a late timer gives work would fail the run.
 */
import { message } from 'antd';
import { act, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, test } from 'vitest';
import { mountedRoots, unmountRoots } from './roots';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

test("a root left mounted and antd's own are unmounted before the teardown, their effects cleaned up", async () => {
  let cleanedUp = false;
  function Probe() {
    useEffect(
      () => () => {
        cleanedUp = true;
      },
      [],
    );
    return null;
  }
  const before = mountedRoots();
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(<Probe />));
  expect(mountedRoots()).toBe(before + 1);
  // antd draws its global message in a root of its own.
  await act(async () => {
    message.info('x');
  });
  expect(mountedRoots()).toBeGreaterThan(before + 1);

  await unmountRoots();
  expect(mountedRoots()).toBe(0);
  expect(cleanedUp).toBe(true);
});

test('a root a test unmounts itself is no longer counted', async () => {
  const before = mountedRoots();
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(<span />));
  expect(mountedRoots()).toBe(before + 1);
  await act(async () => root.unmount());
  expect(mountedRoots()).toBe(before);
});
