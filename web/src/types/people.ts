/** Lawyer and sales-person DTOs of the API (spec §3). */

export type StaffRole = 'lawyer' | 'sales_person';

export type LawyerKind = 'internal' | 'external';

export interface LawyerDetails {
  user_sub_type: LawyerKind;
  company_name: string | null;
  /** SEK per hour in öre. */
  hourly_rate_ore: number | null;
  knowledge_sectors: number[];
  company_affiliation: string | null;
  description: string;
  video_care_url: string | null;
}

export interface StaffProfile {
  uid: string;
  role: StaffRole;
  first_name: string;
  last_name: string;
  email: string;
  active: boolean;
  created_at: string;
  lawyer: LawyerDetails | null;
  /** A lawyer's ratings: how many, and their average (one decimal; null without any). */
  rating_count?: number;
  rating_average?: number | null;
}

export interface StaffInput {
  first_name: string;
  last_name: string;
  email: string;
  user_sub_type?: LawyerKind;
  company_name?: string | null;
  hourly_rate?: number | null;
  knowledge_sectors?: number[];
  company_affiliation?: string | null;
  description?: string | null;
  video_care_url?: string | null;
}

export type { NamedEntry } from './named';
