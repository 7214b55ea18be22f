import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import PlainButton from './PlainButton';
import { PlainCol, PlainRow } from './PlainGrid';
import PlainIcon from './PlainIcon';
import PlainInput, { PlainPassword } from './PlainInput';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { renderComponent } = await import('../../test/renderApp');

// The public pages' controls drawn without antd (components/plain): the same markup, states and behaviour as antd's.
describe('plain controls', () => {
  it('an icon is antd markup: a labelled img span around its SVG, sized by the font', async () => {
    const r = await renderComponent(<PlainIcon icon={LockOutlined} data-testid="icon" />);
    const icon = r.$('icon')!;
    expect(icon.getAttribute('role')).toBe('img');
    expect(icon.getAttribute('aria-label')).toBe('lock');
    expect(icon.className).toBe('anticon anticon-lock');
    const svg = icon.querySelector('svg')!;
    expect(svg.getAttribute('viewBox')).toBe('64 64 896 896');
    expect(svg.getAttribute('width')).toBe('1em');
    expect(svg.getAttribute('fill')).toBe('currentColor');
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.querySelectorAll('path').length).toBeGreaterThan(0);
    await r.unmount();
  });

  it("an icon's SVG attributes get React's names (no unknown-property warning, the shape's fill rule kept)", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const r = await renderComponent(<PlainIcon icon={CloseCircleFilled} data-testid="icon" />);
    expect(r.$('icon')!.querySelector('svg')!.getAttribute('fill-rule')).toBe('evenodd');
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    await r.unmount();
  });

  it("a grid's columns carry their spans per breakpoint and the row its gutter, for the CSS (antd's Row and Col)", async () => {
    const r = await renderComponent(
      <PlainRow gutter={[30, 20]} data-testid="row">
        <PlainCol xs={12} md={8} xl={6} data-testid="col">
          x
        </PlainCol>
        <PlainCol span={24} data-testid="full" />
      </PlainRow>,
    );
    const row = r.$('row')!;
    expect(row.className).toBe('plain-row');
    expect(row.style.getPropertyValue('--gutter-h')).toBe('30px');
    expect(row.style.getPropertyValue('--gutter-v')).toBe('20px');
    const col = r.$('col')!;
    expect(col.className).toBe('plain-col');
    expect([col.style.getPropertyValue('--span-xs'), col.style.getPropertyValue('--span-md'), col.style.getPropertyValue('--span-xl')]).toEqual(['12', '8', '6']);
    // A breakpoint not given takes the smaller one's span (the CSS's fallbacks): no variable of its own.
    expect(col.style.getPropertyValue('--span-sm')).toBe('');
    expect(col.style.getPropertyValue('--span-lg')).toBe('');
    expect(r.$('full')!.style.getPropertyValue('--span-xs')).toBe('24');
    await r.unmount();
  });

  it('a submit button while loading: disabled, busy, with a spinning icon before its text', async () => {
    const onClick = vi.fn();
    const r = await renderComponent(
      <form onSubmit={(e) => e.preventDefault()}>
        <PlainButton type="primary" htmlType="submit" size="large" block loading disabled onClick={onClick} data-testid="b">
          Send
        </PlainButton>
      </form>,
    );
    const b = r.$('b') as HTMLButtonElement;
    expect(b.type).toBe('submit');
    expect(b.disabled).toBe(true);
    expect(b.getAttribute('aria-busy')).toBe('true');
    expect(b.className.split(' ')).toEqual(['plain-btn', 'plain-btn-primary', 'plain-btn-lg', 'plain-btn-block', 'plain-btn-loading']);
    expect(b.querySelector('.plain-spin[aria-label="loading"]')).not.toBeNull();
    expect(b.textContent).toBe('Send');
    await r.click('b');
    expect(onClick).not.toHaveBeenCalled();
    await r.unmount();
  });

  it('a button is type="button" unless told, and clicks', async () => {
    const onClick = vi.fn();
    const r = await renderComponent(
      <PlainButton type="link" className="link-button" onClick={onClick} data-testid="b">
        Again
      </PlainButton>,
    );
    const b = r.$('b') as HTMLButtonElement;
    expect(b.type).toBe('button');
    expect(b.className).toBe('plain-btn plain-btn-link link-button');
    expect(b.getAttribute('aria-busy')).toBeNull();
    await r.click('b');
    expect(onClick).toHaveBeenCalledTimes(1);
    await r.unmount();
  });

  it('an input passes its attributes to the <input> and shows its status on the wrapper', async () => {
    const r = await renderComponent(
      <PlainInput id="f" status="error" disabled prefix={<PlainIcon icon={LockOutlined} />} aria-invalid="true" inputMode="email" data-testid="i" />,
    );
    const input = r.$('i') as HTMLInputElement;
    expect(input.tagName).toBe('INPUT');
    expect(input.id).toBe('f');
    expect(input.type).toBe('text');
    expect(input.disabled).toBe(true);
    expect(input.getAttribute('inputmode')).toBe('email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const wrapper = input.parentElement!;
    expect(wrapper.className).toBe('plain-input plain-input-error plain-input-disabled');
    expect(wrapper.querySelector('.plain-input-prefix .anticon-lock')).not.toBeNull();
    await r.unmount();
  });

  it("a password's eye shows and hides it, and keeps the focus in the field", async () => {
    const r = await renderComponent(<PlainPassword data-testid="p" />);
    const input = r.$('p') as HTMLInputElement;
    expect(input.type).toBe('password');
    const eye = () => input.parentElement!.querySelector<HTMLElement>('.plain-input-password-icon')!;
    expect(eye().getAttribute('aria-label')).toBe('eye-invisible');
    const down = new MouseEvent('mousedown', { bubbles: true, cancelable: true });
    eye().dispatchEvent(down);
    expect(down.defaultPrevented).toBe(true);
    await act(async () => eye().click());
    expect(input.type).toBe('text');
    expect(eye().getAttribute('aria-label')).toBe('eye');
    await act(async () => eye().click());
    expect(input.type).toBe('password');
    await r.unmount();
  });

  it('a disabled password stays hidden', async () => {
    const r = await renderComponent(<PlainPassword disabled data-testid="p" />);
    const input = r.$('p') as HTMLInputElement;
    await act(async () => input.parentElement!.querySelector<HTMLElement>('.plain-input-password-icon')!.click());
    expect(input.type).toBe('password');
    await r.unmount();
  });
});
