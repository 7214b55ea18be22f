/**
 * Names the platform seeds, shown in the user's language: the
 * business sectors of the seeded list (spec §3) and the six fixed services
 * by id. A name staff added themselves is shown as stored.
 */
import i18n from '../i18n';

/** A business sector's name: the seeded ones translated, others as stored. */
export function sectorName(name: string | null | undefined): string {
  if (!name) return '';
  return i18n.t(`sectors.${name}`, { ns: 'common', defaultValue: name });
}

/** A service's name by its fixed id (1 consultancy hours … 6 video meeting); `stored` for an unknown id. */
export function serviceName(id: number | null | undefined, stored?: string): string {
  if (id == null) return stored ?? '';
  return i18n.t(`services.${id}`, { ns: 'common', defaultValue: stored ?? String(id) });
}
