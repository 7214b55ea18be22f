/** Case document DTOs of the API (spec §3 files). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

export type CaseFile = Schemas['CaseFile'];

export type CaseDocument = Schemas['CaseDocument'];

export type DocumentList = Schemas['DocumentList'];
