import { ArrowDownOutlined, ArrowUpOutlined, CheckCircleTwoTone, DeleteOutlined, EditOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { LESSON_TEXT_MAX_CHARS, LESSON_TITLE_MAX_CHARS, LESSON_TOPIC_MAX_CHARS } from '../../validation/bounds';
import { Button, Card, Checkbox, Collapse, Empty, Form, Input, InputNumber, Modal, Popconfirm, Progress as Bar, Skeleton, Space, Switch, Tag, Typography, Upload } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { createLesson, deleteLesson, fetchAcademy, orderLessons, setProgress, updateLesson, uploadLessonVideo } from '../../api/content';
import { ApiError } from '../../api/errors';
import MessageAlert from '../../components/MessageAlert';
import { translateServerMessage } from '../../i18n';
import { useAreaRole } from '../../routes/pathFor';
import type { Audience, LessonEnglish, LessonForm, LessonView, Topic } from '../../types/content';
import PageTitle from '../../components/PageTitle';

const Markdown = lazy(() => import('../../components/Markdown'));

/**
 * What a reader sees of a lesson: the English version to an English reader when the lesson has
 * one, otherwise the Swedish text, marked as such for an English reader.
 */
export function inReadersLanguage(l: Pick<LessonView, 'title' | 'text' | 'en'>, language: string) {
  const en = language.startsWith('en') ? l.en : null;
  return { title: en ? en.title : l.title, text: en ? (en.text ?? '') : l.text, swedishOnly: language.startsWith('en') && !en };
}

/** The form's English fields, none filled: the lesson is written in Swedish only. */
const englishOf = (en: Partial<LessonEnglish> | null | undefined): LessonEnglish | null =>
  en && [en.topic, en.title, en.text].some((v) => (v ?? '').trim() !== '') ? { topic: en.topic ?? '', title: en.title ?? '', text: en.text ?? '' } : null;
const AUDIENCES: Audience[] = ['lawyer', 'sales', 'customer'];

/** The lesson's player: an embedded YouTube/Vimeo player (the CSP allows only these) or the uploaded MP4. */
function Player({ lesson, onPlay }: { lesson: LessonView; onPlay: () => void }) {
  if (lesson.video_url) {
    return (
      <div className="academy-player">
        <iframe
          src={lesson.video_url}
          title={lesson.title}
          allow="encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          loading="lazy"
          onLoad={onPlay}
        />
      </div>
    );
  }
  if (lesson.video_file_url) {
    return (
      <div className="academy-player">
        <video src={lesson.video_file_url} controls preload="metadata" onPlay={onPlay} aria-label={lesson.title} />
      </div>
    );
  }
  return null;
}

function LessonEditor({ lesson, onSaved, onClose }: { lesson: LessonView | null; onSaved: () => void; onClose: () => void }) {
  const { t } = useTranslation('content');
  const [form] = Form.useForm<LessonForm>();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[] | null>(null);
  const [video, setVideo] = useState<File | null>(null);
  const save = async (v: LessonForm) => {
    setBusy(true);
    setErrors(null);
    try {
      const body: LessonForm = {
        ...v,
        text: v.text ?? '',
        video_url: v.video_url ?? '',
        audience: v.audience ?? [],
        en: englishOf(v.en),
      };
      const saved = lesson ? await updateLesson(lesson.id, body) : await createLesson(body);
      if (video) await uploadLessonVideo(saved.id, video);
      onSaved();
    } catch (e) {
      if (e instanceof ApiError) {
        const fields = Object.entries(e.fieldErrors);
        // Keys of the English version's fields are dotted ("en.title"): the form's nested names.
        if (fields.length) form.setFields(fields.map(([name, keys]) => ({ name: name.split('.') as never, errors: keys.map(translateServerMessage) })));
        else setErrors([translateServerMessage(e.body?.message ?? 'validation_failed')]);
      } else setErrors([String(e)]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={lesson ? t('academy.edit') : t('academy.create')} onCancel={onClose} footer={null} width={720} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        initialValues={lesson ?? { published: false, audience: [], text: '', video_url: '', en: null }}
        onFinish={(v) => void save(v)}
        data-testid="lesson-form"
      >
        <Form.Item name="topic" label={t('academy.topic')} rules={[{ required: true, whitespace: true, message: t('academy.required') }]}>
          <Input maxLength={LESSON_TOPIC_MAX_CHARS} data-testid="lesson-topic" />
        </Form.Item>
        <Form.Item name="title" label={t('academy.titleField')} rules={[{ required: true, whitespace: true, message: t('academy.required') }]}>
          <Input maxLength={LESSON_TITLE_MAX_CHARS} data-testid="lesson-title" />
        </Form.Item>
        <Form.Item name="video_url" label={t('academy.videoUrl')} extra={t('academy.videoUrlHelp')}>
          <Input data-testid="lesson-video-url" />
        </Form.Item>
        <Form.Item label={t('academy.videoFile')} extra={t('academy.videoFileHelp')}>
          <Upload accept="video/mp4" maxCount={1} beforeUpload={(f) => (setVideo(f), false)} onRemove={() => setVideo(null)}>
            <Button icon={<UploadOutlined />}>{t('academy.chooseVideo')}</Button>
          </Upload>
        </Form.Item>
        <Form.Item name="text" label={t('academy.text')} extra={t('academy.markdownHelp')}>
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 14 }} maxLength={LESSON_TEXT_MAX_CHARS} data-testid="lesson-text" />
        </Form.Item>
        <Typography.Title level={5}>{t('academy.english')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('academy.englishHelp')}</Typography.Paragraph>
        <Form.Item name={['en', 'topic']} label={t('academy.topicEn')}>
          <Input maxLength={LESSON_TOPIC_MAX_CHARS} data-testid="lesson-topic-en" />
        </Form.Item>
        <Form.Item name={['en', 'title']} label={t('academy.titleEn')}>
          <Input maxLength={LESSON_TITLE_MAX_CHARS} data-testid="lesson-title-en" />
        </Form.Item>
        <Form.Item name={['en', 'text']} label={t('academy.textEn')} extra={t('academy.markdownHelp')}>
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 14 }} maxLength={LESSON_TEXT_MAX_CHARS} data-testid="lesson-text-en" />
        </Form.Item>
        <Form.Item name="audience" label={t('academy.audience')} extra={t('academy.audienceHelp')}>
          <Checkbox.Group options={AUDIENCES.map((a) => ({ value: a, label: t(`academy.audiences.${a}`) }))} />
        </Form.Item>
        <Space size="large">
          <Form.Item name="position" label={t('academy.position')}>
            <InputNumber min={1} max={999} />
          </Form.Item>
          <Form.Item name="published" label={t('academy.published')} valuePropName="checked">
            <Switch data-testid="lesson-published" />
          </Form.Item>
        </Space>
        <MessageAlert messages={errors} />
        <Button type="primary" htmlType="submit" loading={busy} data-testid="lesson-save">
          {t('academy.save')}
        </Button>
      </Form>
    </Modal>
  );
}

/**
 * Freja Academy (every role): lessons by topic, each a video and a text,
 * with the user's own progress (watched when played, completed by the
 * user). Admin also creates, edits, orders, publishes and removes lessons.
 */
export default function Academy({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation('content');
  const english = i18n.language.startsWith('en');
  const admin = useAreaRole() === 'admin';
  const [editing, setEditing] = useState<LessonView | null | 'new'>(null);
  const { rows: topics, set: setTopics, reload: load } = useList<Topic>(fetchAcademy);

  const mark = async (l: LessonView, p: { watched?: boolean; completed?: boolean }) => {
    if (admin) return;
    if (p.watched && l.progress.watched && p.completed === undefined) return;
    const progress = await setProgress(l.id, p);
    setTopics((old) => old?.map((tp) => ({ ...tp, lessons: tp.lessons.map((x) => (x.id === l.id ? { ...x, progress } : x)) })) ?? null);
  };

  const all = topics?.flatMap((tp) => tp.lessons) ?? [];
  const move = async (l: LessonView, by: number) => {
    const ids = all.map((x) => x.id);
    const i = ids.indexOf(l.id);
    const j = i + by;
    if (j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j], ids[i]];
    await orderLessons(ids);
    await load();
  };
  const done = all.filter((l) => l.progress.completed).length;

  return (
    <div className="page" data-testid="academy-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <PageTitle titleKey={titleKey} />
        {admin && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="lesson-create">
            {t('academy.create')}
          </Button>
        )}
      </Space>
      {!admin && all.length > 0 && (
        <Card className="page-card" size="small">
          <Space>
            <span>{t('academy.progress', { done, total: all.length })}</span>
            <Bar percent={Math.round((done / all.length) * 100)} style={{ width: 200 }} aria-label={t('academy.progress', { done, total: all.length })} />
          </Space>
        </Card>
      )}
      {topics === null && <Skeleton active />}
      {topics?.length === 0 && <Empty description={t('academy.empty')} />}
      {topics?.map((tp) => (
        <Card
          key={tp.topic}
          title={<h2 className="card-heading">{english && tp.topic_en ? tp.topic_en : tp.topic}</h2>}
          className="page-card"
          data-testid="academy-topic"
        >
          <Collapse
            items={tp.lessons.map((l) => ({ l, shown: inReadersLanguage(l, i18n.language) })).map(({ l, shown }) => ({
              key: l.id,
              label: (
                <Space wrap>
                  {l.progress.completed && <CheckCircleTwoTone twoToneColor="#52c41a" aria-label={t('academy.completed')} />}
                  <span data-testid="lesson-title-text" lang={shown.swedishOnly || !english ? 'sv' : 'en'}>
                    {shown.title}
                  </span>
                  {shown.swedishOnly && <Tag data-testid="lesson-swedish-only">{t('academy.swedishOnly')}</Tag>}
                  {admin && !l.published && <Tag>{t('academy.draft')}</Tag>}
                  {admin && (l.audience ?? []).map((a) => <Tag key={a}>{t(`academy.audiences.${a}`)}</Tag>)}
                  {!admin && l.progress.watched && !l.progress.completed && <Tag color="blue">{t('academy.watched')}</Tag>}
                </Space>
              ),
              children: (
                <div data-testid={`lesson-${l.id}`}>
                  <Player lesson={l} onPlay={() => void mark(l, { watched: true })} />
                  <Suspense fallback={null}>
                    <div lang={shown.swedishOnly || !english ? 'sv' : 'en'}>
                      <Markdown text={shown.text} />
                    </div>
                  </Suspense>
                  {!admin && (
                    <Checkbox
                      checked={l.progress.completed}
                      onChange={(e) => void mark(l, { completed: e.target.checked })}
                      data-testid={`lesson-complete-${l.id}`}
                    >
                      {t('academy.markCompleted')}
                    </Checkbox>
                  )}
                  {admin && (
                    <Space>
                      <Button icon={<EditOutlined />} onClick={() => setEditing(l)}>
                        {t('academy.edit')}
                      </Button>
                      <Button icon={<ArrowUpOutlined />} aria-label={t('academy.up')} onClick={() => void move(l, -1)} />
                      <Button icon={<ArrowDownOutlined />} aria-label={t('academy.down')} onClick={() => void move(l, 1)} />
                      <Popconfirm title={t('academy.deleteConfirm')} onConfirm={() => void deleteLesson(l.id).then(load)}>
                        <Button danger icon={<DeleteOutlined />} aria-label={t('academy.delete')} />
                      </Popconfirm>
                    </Space>
                  )}
                </div>
              ),
            }))}
          />
        </Card>
      ))}
      {editing && (
        <LessonEditor
          lesson={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}
    </div>
  );
}
