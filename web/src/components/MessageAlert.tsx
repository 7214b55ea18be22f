import Alert from 'antd/es/alert';
import type { AlertProps } from 'antd';
import type { AlertRef } from 'antd/es/alert/Alert';
import { useEffect, useRef } from 'react';
import { revealElement } from './reveal';

/** An inline Alert of one or more (already translated) messages; renders nothing when there are none. */
export default function MessageAlert({
  messages,
  type = 'error',
  testId,
  className = 'form-alert',
  action,
}: {
  messages: string[] | null | undefined;
  type?: AlertProps['type'];
  testId?: string;
  className?: string;
  action?: AlertProps['action'];
}) {
  const ref = useRef<AlertRef>(null);
  const shown = messages?.join('\n') ?? '';
  // A new error is brought into view (the submit button may be far below it).
  useEffect(() => {
    if (shown && type === 'error') revealElement(ref.current?.nativeElement);
  }, [shown, type]);
  if (!messages?.length) return null;
  return (
    <Alert
      ref={ref}
      type={type}
      showIcon
      className={className}
      data-testid={testId}
      action={action}
      title={
        messages.length === 1 ? (
          messages[0]
        ) : (
          <ul className="plain-list">
            {messages.map((m, i) => (
              <li key={i}>{m}</li>
            ))}
          </ul>
        )
      }
    />
  );
}
