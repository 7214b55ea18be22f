/** The role areas' English texts: the namespaces of the areas' first pages (i18n/groups.ts). Loaded with the area. */
import { namespaces } from './namespaces';

export const resources = namespaces(
  import.meta.glob<{ default: Record<string, unknown> }>(
    [
      '../locales/en/*.json',
      // With every route title (the first chunk has the public pages' only: i18n/index.ts `loadAreaTexts`).
      '!../locales/en/{common,public,errors,legal}.json',
      // Chunks of their own (i18n/groups.ts `OWN_CHUNK_NAMESPACES`): the area loads the server's and the account's too.
      '!../locales/en/{server,account,registration}.json',
      // The audit pages bring their own texts (pages/audit/texts.ts): few users open them.
      '!../locales/en/audit.json',
      // So do the data-rights pages (pages/dataRights/texts.ts).
      '!../locales/en/dataRights.json',
      // BankID's texts load with its panel (components/bankid/texts.ts).
      '!../locales/en/bankid.json',
      // The other pages' texts (i18n/groups.ts `PAGE_NAMESPACES`): pages.en.ts, with the first of them.
      '!../locales/en/{caseDocuments,caseHours,cases,catalogue,conflict,content,customerAdmin,customers,people,profile,settings,users}.json',
    ],
    { eager: true },
  ),
);
