/**
 * Case documents (spec §3 files, §5): presigned upload straight to S3, the
 * server's confirm step (type by extension and content, size), presigned
 * download. The server decides; the checks here only spare a useless upload.
 */
import { api } from './client';
import { putToPresignedUrl } from './users';
import type { CaseFile, DocumentList } from '../types/caseDocuments';

interface UploadTarget {
  url: string;
  key: string;
  content_type: string;
  name: string;
  max_bytes: number;
}

/** Spec §3: pdf, word, excel, jpg, png, ppt (legacy and OOXML forms). Mirrors shared::domain::document. */
export const DOCUMENT_EXTENSIONS = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'jpg', 'jpeg', 'png'];
/** For the file picker's `accept`. */
export const DOCUMENT_ACCEPT = DOCUMENT_EXTENSIONS.map((e) => `.${e}`).join(',');
export const DOCUMENT_MAX_BYTES = 25 * 1024 * 1024;

/** Why a file is refused before any call (a caseDocuments translation key), or null. */
export function checkDocument(file: { name: string; size: number }): string | null {
  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (!DOCUMENT_EXTENSIONS.includes(ext)) return 'wrongType';
  if (file.size <= 0) return 'empty_file';
  if (file.size > DOCUMENT_MAX_BYTES) return 'tooLarge';
  return null;
}

const quiet = { suppressError: [400] };

export const listCaseDocuments = (caseUid: string) => api.get<DocumentList>('/case/file/list/', { query: { case: caseUid } });

export const documentDownloadUrl = (caseUid: string, key: string) =>
  api.get<{ url: string; name: string }>('/case/file/download/', { query: { case: caseUid, key } });

export const deleteCaseDocument = (caseUid: string, key: string) => api.del('/case/file/delete/', { query: { case: caseUid, key } });

/**
 * Upload one document: a presigned URL for a key the server chooses, the PUT
 * with exactly the signed content type, then the confirm that checks it.
 * 400s are left to the caller (shown inline, translated).
 */
export async function uploadCaseDocument(caseUid: string, file: File): Promise<CaseFile> {
  const target = await api.post<UploadTarget>('/case/file/upload-url/', { case_uid: caseUid, name: file.name }, quiet);
  await putToPresignedUrl(target.url, file, target.content_type);
  return api.post<CaseFile>('/case/file/confirm/', { case_uid: caseUid, key: target.key, name: target.name }, quiet);
}

/** Opens a presigned download (an attachment: the page stays). Replaceable in tests. */
export const browser = {
  open(url: string): void {
    window.location.assign(url);
  },
};
