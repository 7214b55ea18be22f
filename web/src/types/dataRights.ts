/** The client's data rights' DTOs (`customer/data-export/{uid}/`). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

/** Where an export is: queued, running, ready, failed or expired. */
export type ExportState = Schemas['ExportState'];

/** One export of a customer's data, with its download link while ready. */
export type ExportView = Schemas['ExportView'];

/** A customer's request to be forgotten (`customer/erasure/{uid}/`). */
export type ErasureRequest = Schemas['ErasureRequest'];

/** pending, approved (being erased), erased or refused. */
export type ErasureState = Schemas['ErasureState'];

/** One thing an erasure kept (a case file, billing records, the audit trail) and until when. */
export type Kept = Schemas['Kept'];

/** One row of admin's data-rights requests list (`data-requests/`). */
export type RequestRow = Schemas['RequestRow'];
export type RequestPage = Schemas['RequestPage'];
