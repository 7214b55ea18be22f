import Alert from 'antd/es/alert';
import type { AlertProps } from 'antd';

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
  if (!messages?.length) return null;
  return (
    <Alert
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
