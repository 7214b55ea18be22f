/** DTOs of the content function: terms and privacy, templates, the customer's documents, support, academy. */

export type LegalKind = 'terms' | 'privacy';

export interface LegalText {
  kind: LegalKind;
  version: number;
  /** Markdown. */
  sv: string;
  en: string;
  published_at: string;
  published_by?: string;
}

export interface Acceptance {
  kind: LegalKind;
  version: number;
  accepted_at: string;
}

export interface TemplateFile {
  id: string;
  title: string;
  category: string;
  language: 'sv' | 'en';
  key: string;
  name: string;
  size: number;
  uploaded_at: string;
}

export type DocumentKind = 'pdf' | 'word' | 'excel' | 'ppt' | 'image';

export interface CustomerDocument {
  case_uid: string;
  case_number: string;
  case_subject: string;
  key: string;
  name: string;
  size: number;
  uploaded_by_name: string;
  uploaded_at: string | null;
  kind: DocumentKind;
}

export type TicketStatus = 'open' | 'answered' | 'closed';

export interface Attachment {
  key: string;
  name: string;
  size: number;
}

export interface Ticket {
  id: number;
  customer_uid: string;
  customer_name: string;
  case_uid: string | null;
  case_number: string | null;
  subject: string;
  message: string;
  attachment: Attachment | null;
  status: TicketStatus;
  created_by_name: string;
  created_at: string;
  updated_at: string;
  answer_count: number;
}

export interface Answer {
  id: string;
  by_name: string;
  staff: boolean;
  text: string;
  at: string;
}

export interface TicketDetails extends Ticket {
  answers: Answer[];
  can_answer: boolean;
  can_close: boolean;
}

export interface TicketList {
  results: Ticket[];
  next: string | null;
}

export interface TicketCounts {
  open: number;
  answered: number;
  closed: number;
  total: number;
}

export type Audience = 'lawyer' | 'sales' | 'customer';

export interface Progress {
  lesson_id: string;
  watched: boolean;
  completed: boolean;
  updated_at: string | null;
}

export interface Lesson {
  id: string;
  topic: string;
  title: string;
  /** Markdown. */
  text: string;
  video_url: string | null;
  video_key: string | null;
  position: number;
  published: boolean;
  audience: Audience[];
}

export interface LessonView extends Lesson {
  progress: Progress;
  video_file_url: string | null;
}

export interface Topic {
  topic: string;
  lessons: LessonView[];
}

export interface LessonForm {
  topic: string;
  title: string;
  text: string;
  video_url: string;
  published: boolean;
  audience: Audience[];
  position?: number;
}
