/** The client's data rights' DTOs (`customer/data-export/{uid}/`). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

/** Where an export is: queued, running, ready, failed or expired. */
export type ExportState = Schemas['ExportState'];

/** One export of a customer's data, with its download link while ready. */
export type ExportView = Schemas['ExportView'];
