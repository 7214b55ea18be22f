/** DTOs of the content function: terms and privacy, templates, the customer's documents, support, academy. */

import type { components } from './api.gen';

type Schemas = components['schemas'];

export type LegalKind = Schemas['LegalKind'];

export type LegalText = Schemas['LegalText'];

/** A published version without its texts (admin's list, the answer to publishing). */
export type LegalVersion = Schemas['LegalVersion'];

export type Acceptance = Schemas['Acceptance'];

export type TemplateFile = Schemas['TemplateFile'];

export type DocumentKind = 'pdf' | 'word' | 'excel' | 'ppt' | 'image';

export type CustomerDocument = Schemas['CustomerDocument'];

export type TicketStatus = Schemas['TicketStatus'];

export type Attachment = Schemas['Attachment'];

export type Ticket = Schemas['Ticket'];

export type Answer = Schemas['Answer'];

export type TicketDetails = Schemas['TicketDetails'];

export type TicketList = Schemas['TicketList'];

export type TicketCounts = Schemas['TicketCounts'];

export type Audience = Schemas['Audience'];

export type Progress = Schemas['Progress'];

export type Lesson = Schemas['Lesson'];

/** A lesson's English version (null on a lesson written in Swedish only). */
export type LessonEnglish = Schemas['LessonEnglish'];

export type LessonView = Schemas['LessonView'];

export type Topic = Schemas['Topic'];

export type LessonForm = Schemas['LessonForm'];
