import { UploadOutlined } from '@ant-design/icons';
import { Button, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkDocument, DOCUMENT_ACCEPT } from '../api/caseDocuments';

/**
 * One document to send with a form (a support ticket's attachment, a template): the case documents' types and
 * size, a refused file said through `onRefused` (translated), nothing sent until the form is.
 */
export default function OneDocumentPicker({
  file,
  onFile,
  onRefused,
  label,
}: {
  file: File | null;
  onFile: (file: File | null) => void;
  onRefused: (messages: string[]) => void;
  label: string;
}) {
  const { t } = useTranslation('caseDocuments');
  return (
    <Upload
      accept={DOCUMENT_ACCEPT}
      maxCount={1}
      beforeUpload={(f) => {
        const why = checkDocument(f);
        if (why) onRefused([t(why, { name: f.name })]);
        else onFile(f);
        return false;
      }}
      onRemove={() => onFile(null)}
      fileList={file ? [{ uid: 'f', name: file.name, status: 'done' }] : []}
    >
      <Button icon={<UploadOutlined />}>{label}</Button>
    </Upload>
  );
}
