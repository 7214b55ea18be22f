import { act } from 'react';
import { Button, ConfigProvider, Form, Input } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { FORM_CONFIG, revealField } from './reveal';
import MessageAlert from './MessageAlert';
import { applyServerErrors } from '../api/formErrors';
import { ApiError } from '../api/errors';

const { renderComponent } = await import('../test/renderApp');

function LongForm() {
  return (
    <ConfigProvider form={FORM_CONFIG}>
      <Form data-testid="long-form">
        <Form.Item name="first" rules={[{ required: true, message: 'first missing' }]}>
          <Input data-testid="first" />
        </Form.Item>
        <Form.Item name="second" rules={[{ required: true, message: 'second missing' }]}>
          <Input data-testid="second" />
        </Form.Item>
        <Button htmlType="submit" data-testid="send">
          send
        </Button>
      </Form>
    </ConfigProvider>
  );
}

describe('errors in view', { timeout: 120_000 }, () => {
  it('a failed submit focuses the first wrong field, not the button', async () => {
    const r = await renderComponent(<LongForm />);
    await r.type('second', 'filled');
    r.$('send')!.focus();
    await r.click('send');
    await r.waitFor(() => document.body.textContent?.includes('first missing'), 'the rule speaks');
    await r.waitFor(() => document.activeElement === r.$('first'), 'the first wrong field has the focus');
    await r.unmount();
  });

  it("the server's field errors scroll to their first field", () => {
    const form = { setFields: vi.fn(), scrollToField: vi.fn() };
    const err = new ApiError(400, { status: 400, message: 'validation_failed', errors: { post_code: ['invalid_post_code'], email: ['invalid_email'] } });
    applyServerErrors(form, err, ['email', 'post_code']);
    expect(form.setFields).toHaveBeenCalled();
    expect(form.scrollToField).toHaveBeenCalledWith('post_code', expect.objectContaining({ focus: true }));
    revealField(form, []);
    expect(form.scrollToField).toHaveBeenCalledTimes(1);
  });

  it('an error Alert out of view is scrolled into view when it appears', async () => {
    const scroll = vi.fn();
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = scroll;
    const rect = Element.prototype.getBoundingClientRect;
    // Above the window: the page was scrolled down to the submit button.
    Element.prototype.getBoundingClientRect = () => ({ top: -400, bottom: -350, left: 0, right: 10, width: 10, height: 50, x: 0, y: -400, toJSON: () => ({}) });
    try {
      const r = await renderComponent(<MessageAlert messages={['Refused']} testId="alert" />);
      await act(async () => undefined);
      expect(r.$('alert')).not.toBeNull();
      expect(scroll).toHaveBeenCalledTimes(1);
      await r.unmount();
    } finally {
      Element.prototype.scrollIntoView = original;
      Element.prototype.getBoundingClientRect = rect;
    }
  });
});
