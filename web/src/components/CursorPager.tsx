import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CursorList } from '../api/paging';

/** Previous / next for a key-paged list. */
export default function CursorPager({ list, testId = 'pager' }: { list: CursorList<unknown>; testId?: string }) {
  const { t } = useTranslation();
  if (!list.hasNext && !list.hasPrevious) return null;
  return (
    <Space className="cursor-pager" data-testid={testId}>
      <Button icon={<LeftOutlined />} disabled={!list.hasPrevious || list.loading} onClick={list.previous} data-testid={`${testId}-previous`}>
        {t('pager.previous')}
      </Button>
      <span data-testid={`${testId}-page`}>{t('pager.page', { page: list.page })}</span>
      <Button disabled={!list.hasNext || list.loading} onClick={list.next} data-testid={`${testId}-next`}>
        {t('pager.next')} <RightOutlined />
      </Button>
    </Space>
  );
}
