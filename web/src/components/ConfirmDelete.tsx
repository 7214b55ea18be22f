import Button, { type ButtonProps } from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A list row's delete button that asks first: `title` the question, yes and no its answers (`yesTestId` on the
 * yes), the button drawn danger with the rest of the props given (size, type, test id). `ns`: the page's
 * namespace, which holds the delete, yes and no words.
 */
export default function ConfirmDelete({
  ns,
  title,
  onConfirm,
  yesTestId,
  ...button
}: { ns: string; title: ReactNode; onConfirm: () => unknown; yesTestId?: string } & Omit<ButtonProps, 'danger' | 'onClick'> & {
    'data-testid'?: string;
  }) {
  const { t } = useTranslation(ns);
  return (
    <Popconfirm
      title={title}
      okText={t('yes')}
      cancelText={t('no')}
      okButtonProps={yesTestId ? ({ 'data-testid': yesTestId } as Record<string, string>) : undefined}
      onConfirm={onConfirm}
    >
      <Button {...button} danger>
        {t('delete')}
      </Button>
    </Popconfirm>
  );
}
