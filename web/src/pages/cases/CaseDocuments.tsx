import { Button, Card, Popconfirm, Space, Typography, Upload } from 'antd';
import Table from '../../components/ResponsiveTable';
import type { UploadFile, UploadProps } from 'antd';
import { DeleteOutlined, DownloadOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import {
  browser,
  checkDocument,
  deleteCaseDocument,
  documentDownloadUrl,
  DOCUMENT_ACCEPT,
  listCaseDocuments,
  uploadCaseDocument,
} from '../../api/caseDocuments';
import type { CaseDocument, DocumentList } from '../../types/caseDocuments';
import { serverMessages } from '../../api/formErrors';
import MessageAlert from '../../components/MessageAlert';
import { formatDateTime, formatNumber } from '../../format';

/** What the create form hands to the details page when some documents were refused. */
export interface DocumentNavState {
  documentErrors?: string[];
}

export function formatSize(bytes: number, lang: string): string {
  const nf = (n: number) => formatNumber(n, { lang, maxDigits: 1 });
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${nf(bytes / 1024)} kB`;
  return `${nf(bytes / (1024 * 1024))} MB`;
}

type T = (key: string, opts?: Record<string, unknown>) => string;

/** The translated lines for a failed upload of `name`. */
export function uploadErrorLines(t: T, name: string, err: unknown): string[] {
  const reasons = serverMessages(err);
  return reasons.length ? reasons.map((reason) => t('refused', { name, reason })) : [t('failed', { name })];
}

/** Client-side check for the pickers: the translated refusal, or null. */
export function refusal(t: T, file: { name: string; size: number }): string | null {
  const key = checkDocument(file);
  return key ? t(key, { name: file.name }) : null;
}

/**
 * Upload `files` to a case one after the other; the translated errors of
 * those refused (the others are added). Used by the create form.
 */
export async function uploadAll(t: T, caseUid: string, files: File[]): Promise<string[]> {
  const errors: string[] = [];
  for (const f of files) {
    try {
      await uploadCaseDocument(caseUid, f);
    } catch (err) {
      errors.push(...uploadErrorLines(t, f.name, err));
    }
  }
  return errors;
}

/** The create form's picker: files are kept until the case exists. */
export function DocumentPicker({ files, onChange }: { files: File[]; onChange: (files: File[]) => void }) {
  const { t } = useTranslation('caseDocuments');
  const [errors, setErrors] = useState<string[]>([]);
  const fileList: UploadFile[] = files.map((f, i) => ({ uid: `${i}-${f.name}`, name: f.name, size: f.size, status: 'done' }));
  return (
    <div data-testid="case-form-documents">
      <Upload
        accept={DOCUMENT_ACCEPT}
        multiple
        fileList={fileList}
        beforeUpload={(file, batch) => {
          // Called once per file of a pick: decide for the whole pick on the first.
          if (file === batch[0]) {
            setErrors(batch.map((f) => refusal(t, f)).filter((e): e is string => !!e));
            const ok = batch.filter((f) => !refusal(t, f));
            // Kept in state; uploaded once the case exists.
            if (ok.length) onChange([...files, ...ok]);
          }
          return false;
        }}
        onRemove={(u) => {
          onChange(files.filter((_, i) => `${i}-${files[i].name}` !== u.uid));
          return false;
        }}
      >
        <Button icon={<PaperClipOutlined />} data-testid="case-form-documents-pick">
          {t('pick')}
        </Button>
      </Upload>
      <Typography.Text type="secondary">{t('hint')}</Typography.Text>
      <MessageAlert messages={errors} testId="case-form-documents-errors" />
    </div>
  );
}

/** The Documents card of cases/details/{id}: list, download, upload, delete. */
export default function CaseDocuments({ caseUid }: { caseUid: string }) {
  const { t, i18n } = useTranslation('caseDocuments');
  const location = useLocation();
  const { data: list, reload: load } = useLoad<DocumentList>(() => listCaseDocuments(caseUid), caseUid);
  const [errors, setErrors] = useState<string[]>(() => (location.state as DocumentNavState | null)?.documentErrors ?? []);
  const [done, setDone] = useState<string | null>(null);
  const [uploading, setUploading] = useState(0);


  const beforeUpload: UploadProps['beforeUpload'] = (file, batch) => {
    if (file === batch[0]) {
      setErrors([]);
      setDone(null);
    }
    const problem = refusal(t, file);
    if (problem) {
      setErrors((e) => [...e, problem]);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    const f = file as File;
    setUploading((n) => n + 1);
    try {
      await uploadCaseDocument(caseUid, f);
      setDone(t('uploaded', { name: f.name }));
      onSuccess?.({});
    } catch (err) {
      setErrors((e) => [...e, ...uploadErrorLines(t, f.name, err)]);
      onError?.(err as Error);
    } finally {
      setUploading((n) => n - 1);
      await load().catch(() => undefined);
    }
  };

  const download = async (d: CaseDocument) => {
    try {
      const { url } = await documentDownloadUrl(caseUid, d.key);
      browser.open(url);
    } catch {
      /* notified by the client */
    }
  };

  const remove = async (d: CaseDocument) => {
    try {
      await deleteCaseDocument(caseUid, d.key);
    } catch {
      /* notified by the client */
    }
    await load().catch(() => undefined);
  };

  const full = !!list && list.files.length >= list.max_files;
  return (
    <Card
      title={t('title')}
      style={{ marginTop: 16 }}
      loading={!list}
      data-testid="case-documents"
      extra={
        list?.can_manage && (
          <Space data-testid="case-documents-upload">
            <Upload accept={DOCUMENT_ACCEPT} multiple showUploadList={false} beforeUpload={beforeUpload} customRequest={customRequest} disabled={full}>
              <Button icon={<UploadOutlined />} loading={uploading > 0} disabled={full} data-testid="case-documents-upload-button">
                {t('upload')}
              </Button>
            </Upload>
          </Space>
        )
      }
    >
      <MessageAlert messages={errors} testId="case-documents-errors" />
      <MessageAlert messages={done ? [done] : null} type="success" testId="case-documents-success" />
      {list?.can_manage && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('hint')}
        </Typography.Paragraph>
      )}
      <Table<CaseDocument>
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={list?.files ?? []}
        locale={{ emptyText: t('empty') }}
        data-testid="case-documents-table"
        scroll={{ x: true }}
        columns={[
          { title: t('name'), key: 'name', render: (_, d) => <span data-testid="case-document-name">{d.name}</span> },
          { title: t('size'), key: 'size', render: (_, d) => (d.size == null ? '' : formatSize(d.size, i18n.language)) },
          { title: t('uploadedBy'), dataIndex: 'uploaded_by_name', key: 'by' },
          { title: t('uploadedAt'), key: 'at', render: (_, d) => <span className="nowrap">{d.uploaded_at ? formatDateTime(d.uploaded_at) : '–'}</span> },
          {
            title: '',
            key: 'actions',
            render: (_, d) => (
              <Space>
                <Button size="small" icon={<DownloadOutlined />} onClick={() => download(d)} data-testid={`case-document-download-${d.name}`}>
                  {t('download')}
                </Button>
                {d.can_remove && (
                  <Popconfirm
                    title={t('confirmDelete')}
                    okText={t('yes')}
                    cancelText={t('no')}
                    okButtonProps={{ 'data-testid': 'case-document-delete-confirm' } as Record<string, string>}
                    onConfirm={() => remove(d)}
                  >
                    <Button size="small" danger icon={<DeleteOutlined />} data-testid={`case-document-delete-${d.name}`}>
                      {t('delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
