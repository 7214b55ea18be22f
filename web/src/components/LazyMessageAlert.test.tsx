import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../test/amplifyFake')).amplifyApi);
const imported = vi.hoisted(() => ({ count: 0 }));
vi.mock('./MessageAlert', () => {
  imported.count += 1;
  return { default: ({ messages, testId }: { messages: string[]; testId?: string }) => <div data-testid={testId}>{messages.join(' ')}</div> };
});

const { renderComponent } = await import('../test/renderApp');
const { default: LazyMessageAlert } = await import('./LazyMessageAlert');

// The public pages draw an alert slot on every render: with nothing to show it must not fetch the Alert and antd's
// theme (~50 KiB gzip), which took a slow phone's bandwidth and main thread just after the page was shown.
describe('lazy message alert', () => {
  it('loads nothing while there is no message, and the Alert with the first one', async () => {
    const r = await renderComponent(
      <Suspense fallback={null}>
        <LazyMessageAlert messages={null} testId="a" />
        <LazyMessageAlert messages={[]} testId="b" />
      </Suspense>,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(imported.count).toBe(0);
    expect(r.$('a')).toBeNull();
    await r.unmount();
    const shown = await renderComponent(
      <Suspense fallback={null}>
        <LazyMessageAlert messages={['Wrong password']} testId="c" />
      </Suspense>,
    );
    const alert = await shown.waitFor(() => shown.$('c'), 'the alert');
    expect(alert.textContent).toBe('Wrong password');
    expect(imported.count).toBe(1);
    await shown.unmount();
  });
});
