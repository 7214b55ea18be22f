import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Input, Select, Space, Tag } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Link from '../../components/Link';
import { documentDownloadUrl } from '../../api/caseDocuments';
import { fetchCustomerDocuments, fetchTemplates, templateDownloadUrl } from '../../api/content';
import { useList } from '../../api/useList';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import type { CustomerDocument, DocumentKind, TemplateFile } from '../../types/content';
import { TableSkeleton } from '../../components/Skeletons';
import { formatDateTime } from '../../format';
import PageTitle from '../../components/PageTitle';

const KINDS: DocumentKind[] = ['pdf', 'word', 'excel', 'ppt', 'image'];

/** Opens a presigned download (the server answers with Content-Disposition: attachment). */
function open(url: string) {
  window.location.assign(url);
}

/**
 * <prefix>documents/ (customer and contact): the public documents and
 * templates, and the documents of every case the user may see, searchable
 * by name and filtered by case and type; downloads are presigned.
 */
export default function Documents({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation(['content', 'legal'], { nsMode: 'fallback' });
  const role = useAreaRole();
  const templates = useList(fetchTemplates).rows ?? [];
  // Every document once, for the case filter's choices.
  const all = useList(() => fetchCustomerDocuments({})).rows;
  const [docs, setDocs] = useState<CustomerDocument[]>([]);
  const [loading, setLoading] = useState(true);
  const [search, setSearch] = useState('');
  const [caseUid, setCaseUid] = useState<string | undefined>();
  const [kind, setKind] = useState<string | undefined>();

  useEffect(() => {
    setLoading(true);
    const timer = setTimeout(() => {
      fetchCustomerDocuments({ search: search.trim(), case: caseUid, kind })
        .then(setDocs)
        .catch(() => setDocs([]))
        .finally(() => setLoading(false));
    }, 250);
    return () => clearTimeout(timer);
  }, [search, caseUid, kind]);

  const caseOptions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const d of all ?? []) seen.set(d.case_uid, `${d.case_number} · ${d.case_subject}`);
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [all]);

  return (
    <div className="page" data-testid="documents-page">
      <PageTitle titleKey={titleKey} />
      <Card title={<h2 className="card-heading">{t('documents.templates')}</h2>} className="page-card">
        <Table<TemplateFile>
          rowKey="id"
          size="middle"
          dataSource={templates}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('documents.noTemplates') }}
          data-testid="templates-table"
          columns={[
            { title: t('documents.title'), dataIndex: 'title' },
            { title: t('documents.category'), dataIndex: 'category', render: (c: string) => <Tag>{c}</Tag> },
            { title: t('documents.language'), dataIndex: 'language', render: (l: string) => t(`languages.${l}`) },
            {
              title: t('documents.download'),
              key: 'dl',
              render: (_, r) => (
                <Button
                  icon={<DownloadOutlined />}
                  aria-label={`${t('documents.download')} ${r.title}`}
                  onClick={() => void templateDownloadUrl(r.id).then((u) => open(u.url))}
                />
              ),
            },
          ]}
        />
      </Card>
      <Card title={<h2 className="card-heading">{t('documents.caseDocuments')}</h2>} className="page-card">
        <Space wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            placeholder={t('documents.search')}
            aria-label={t('documents.search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="documents-search"
            style={{ width: 260 }}
          />
          <Select
            allowClear
            placeholder={t('documents.case')}
            aria-label={t('documents.case')}
            options={caseOptions}
            value={caseUid}
            onChange={setCaseUid}
            style={{ minWidth: 220 }}
            data-testid="documents-case"
          />
          <Select
            allowClear
            placeholder={t('documents.type')}
            aria-label={t('documents.type')}
            options={KINDS.map((k) => ({ value: k, label: t(`documents.kinds.${k}`) }))}
            value={kind}
            onChange={setKind}
            style={{ minWidth: 160 }}
            data-testid="documents-kind"
          />
        </Space>
        <Table<CustomerDocument>
          rowKey={(r) => `${r.case_uid}/${r.key}`}
          size="middle"
          loading={loading && docs.length > 0}
          dataSource={docs}
          scroll={{ x: true }}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: loading ? <TableSkeleton /> : t('documents.noDocuments') }}
          data-testid="documents-table"
          columns={[
            { title: t('documents.name'), dataIndex: 'name' },
            {
              title: t('documents.case'),
              key: 'case',
              render: (_, r) => <Link to={pathFor(role, 'caseDetails', { id: r.case_uid })}>{r.case_number}</Link>,
            },
            { title: t('documents.type'), dataIndex: 'kind', render: (k: DocumentKind) => t(`documents.kinds.${k}`) },
            {
              title: t('documents.uploaded'),
              key: 'at',
              render: (_, r) => (r.uploaded_at ? formatDateTime(r.uploaded_at) : ''),
            },
            {
              title: t('documents.download'),
              key: 'dl',
              render: (_, r) => (
                <Button
                  icon={<DownloadOutlined />}
                  aria-label={`${t('documents.download')} ${r.name}`}
                  onClick={() => void documentDownloadUrl(r.case_uid, r.key).then((u) => open(u.url))}
                />
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
