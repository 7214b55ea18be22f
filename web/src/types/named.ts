/**
 * An entry of the small named lists admin keeps: knowledge sectors, case
 * types, departments. Named in Swedish (`name`) and, optionally, English
 * (`name_en`); read them with `namedIn` (format.ts) in the reader's language.
 */

import type { components } from './api.gen';

type Schemas = components['schemas'];
export type NamedEntry = Schemas['NamedEntry'];
