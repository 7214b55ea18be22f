import { DeleteOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Popconfirm, Segmented, Select, Tabs, Tag, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import OneDocumentPicker from '../../components/OneDocumentPicker';
import { deleteTemplate, fetchLegalText, fetchLegalVersions, fetchTemplates, publishLegalText, uploadTemplate } from '../../api/content';
import { ApiError } from '../../api/errors';
import MessageAlert from '../../components/MessageAlert';
import { translateServerMessage } from '../../i18n';
import type { LegalKind, LegalVersion, TemplateFile } from '../../types/content';
import { LEGAL_TEXT_MAX_CHARS } from '../../validation/bounds';
import { formatDate, formatDateTime } from '../../format';
import PageTitle from '../../components/PageTitle';

const Markdown = lazy(() => import('../../components/Markdown'));

const codePoints = (text: string) => [...text].length;

function errorsOf(err: unknown): string[] {
  if (err instanceof ApiError) {
    const fields = Object.entries(err.fieldErrors).flatMap(([f, keys]) => keys.map((k) => `${f}: ${translateServerMessage(k)}`));
    return fields.length ? fields : [translateServerMessage(err.body?.message ?? 'validation_failed')];
  }
  return [String(err)];
}

/** settings/terms/ (admin): edit the terms and the privacy policy; saving publishes the next version. */
export function LegalTexts({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation(['content', 'legal'], { nsMode: 'fallback' });
  const [kind, setKind] = useState<LegalKind>('terms');
  const [versions, setVersions] = useState<LegalVersion[]>([]);
  const [sv, setSv] = useState('');
  const [en, setEn] = useState('');
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ type: 'success' | 'error'; texts: string[] } | null>(null);
  // The kind whose texts the editors hold: until the chosen kind's texts have
  // arrived, the editors and Publish wait (typing into the other kind's text,
  // or publishing it under this kind, would lose or misfile the words).
  const [loaded, setLoaded] = useState<LegalKind | null>(null);
  const current = useRef(kind);
  current.current = kind;
  const load = useCallback(async () => {
    setLoaded(null);
    // The list has no texts (each may be 100,000 characters a language): the editors start from the current one.
    const [v, text] = await Promise.all([fetchLegalVersions(kind).catch(() => [] as LegalVersion[]), fetchLegalText(kind).catch(() => null)]);
    // A reply for a kind no longer chosen is dropped.
    if (current.current !== kind) return;
    setVersions(v);
    setSv(text?.sv ?? '');
    setEn(text?.en ?? '');
    setLoaded(kind);
  }, [kind]);
  useEffect(() => {
    void load();
  }, [load]);
  const ready = loaded === kind;
  const publish = async () => {
    setBusy(true);
    setMsg(null);
    try {
      const p = await publishLegalText(kind, sv, en);
      setMsg({ type: 'success', texts: [t('legal.published', { version: p.version })] });
      await load();
    } catch (e) {
      setMsg({ type: 'error', texts: errorsOf(e) });
    } finally {
      setBusy(false);
    }
  };
  const editor = (lang: 'sv' | 'en', value: string, set: (v: string) => void) => ({
    key: lang,
    label: t(`languages.${lang}`),
    children: (
      <div className="legal-editor">
        <Input.TextArea
          value={value}
          disabled={!ready}
          onChange={(e) => set(e.target.value)}
          autoSize={{ minRows: 12, maxRows: 30 }}
          // Counted as the server counts (code points: an emoji is one), so what fits is never refused.
          count={{ show: true, max: LEGAL_TEXT_MAX_CHARS, strategy: codePoints, exceedFormatter: (txt, { max }) => [...txt].slice(0, max).join('') }}
          aria-label={`${t(`legal.${kind}`)} (${t(`languages.${lang}`)})`}
          data-testid={`legal-edit-${lang}`}
        />
        <Card size="small" title={t('legal.preview')}>
          <Suspense fallback={null}>
            <Markdown text={value} />
          </Suspense>
        </Card>
      </div>
    ),
  });
  return (
    <div className="page" data-testid="legal-admin-page">
      <PageTitle titleKey={titleKey} />
      <Segmented
        value={kind}
        onChange={(v) => setKind(v as LegalKind)}
        options={[
          { value: 'terms', label: t('legal.terms') },
          { value: 'privacy', label: t('legal.privacy') },
        ]}
        style={{ marginBottom: 16 }}
      />
      <Card className="page-card" aria-busy={!ready}>
        <Typography.Paragraph type="secondary">
          {versions[0] ? t('legal.current', { version: versions[0].version, date: formatDate(versions[0].published_at) }) : t('legal.none')}
        </Typography.Paragraph>
        <Tabs items={[editor('sv', sv, setSv), editor('en', en, setEn)]} />
        <MessageAlert messages={msg?.texts} type={msg?.type} />
        <Popconfirm title={t('legal.publishConfirm')} onConfirm={() => void publish()} disabled={!ready}>
          <Button type="primary" loading={busy} disabled={!ready} data-testid="legal-publish">
            {t('legal.publish')}
          </Button>
        </Popconfirm>
      </Card>
      <Card title={<h2 className="card-heading">{t('legal.versions')}</h2>} className="page-card">
        <Table<LegalVersion>
          rowKey="version"
          size="small"
          pagination={false}
          dataSource={versions}
          columns={[
            { title: t('legal.versionLabel'), dataIndex: 'version' },
            { title: t('legal.publishedAt'), dataIndex: 'published_at', render: (d: string) => formatDateTime(d) },
          ]}
        />
      </Card>
    </div>
  );
}

/** settings/documents/ (admin): public documents and templates; upload with title, category and language. */
export function TemplateFiles({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('content');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[] | null>(null);
  const [form] = Form.useForm<{ title: string; category: string; language: string }>();
  const { rows, reload: load } = useList<TemplateFile>(fetchTemplates);
  const submit = async (v: { title: string; category: string; language: string }) => {
    if (!file) {
      setErrors([t('documents.chooseFile')]);
      return;
    }
    setBusy(true);
    setErrors(null);
    try {
      await uploadTemplate(file, v.title, v.category, v.language);
      form.resetFields();
      setFile(null);
      await load();
    } catch (e) {
      setErrors(errorsOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="page" data-testid="templates-admin-page">
      <PageTitle titleKey={titleKey} />
      <Card title={<h2 className="card-heading">{t('documents.upload')}</h2>} className="page-card">
        <Form form={form} layout="vertical" initialValues={{ language: 'sv' }} onFinish={(v) => void submit(v)}>
          <Form.Item name="title" label={t('documents.title')} rules={[{ required: true, whitespace: true, message: t('academy.required') }]}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="category" label={t('documents.category')} rules={[{ required: true, whitespace: true, message: t('academy.required') }]}>
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item name="language" label={t('documents.language')}>
            <Select options={(['sv', 'en'] as const).map((l) => ({ value: l, label: t(`languages.${l}`) }))} />
          </Form.Item>
          <Form.Item label={t('documents.file')}>
            <OneDocumentPicker file={file} onFile={setFile} onRefused={setErrors} label={t('documents.chooseFile')} />
          </Form.Item>
          <MessageAlert messages={errors} />
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('documents.upload')}
          </Button>
        </Form>
      </Card>
      <Card className="page-card">
        <Table<TemplateFile>
          rowKey="id"
          size="middle"
          dataSource={rows ?? []}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('documents.noTemplates') }}
          columns={[
            { title: t('documents.title'), dataIndex: 'title' },
            { title: t('documents.category'), dataIndex: 'category', render: (c: string) => <Tag>{c}</Tag> },
            { title: t('documents.language'), dataIndex: 'language', render: (l: string) => t(`languages.${l}`) },
            { title: t('documents.name'), dataIndex: 'name' },
            {
              title: '',
              key: 'del',
              render: (_, r) => (
                <Popconfirm title={t('documents.deleteConfirm')} onConfirm={() => void deleteTemplate(r.id).then(load)}>
                  <Button danger icon={<DeleteOutlined />} aria-label={`${t('documents.delete')} ${r.title}`} />
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
