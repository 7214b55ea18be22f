/** Case document DTOs of the API (spec §3 files). */

export interface CaseFile {
  key: string;
  name: string;
  size: number;
  uploaded_by: string;
  uploaded_by_name: string;
  uploaded_at: string | null;
}

export interface CaseDocument extends CaseFile {
  can_remove: boolean;
}

export interface DocumentList {
  files: CaseDocument[];
  can_manage: boolean;
  max_files: number;
  max_bytes: number;
  extensions: string[];
}
