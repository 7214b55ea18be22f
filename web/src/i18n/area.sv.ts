/** The role areas' Swedish texts: every namespace but the public ones (i18n/groups.ts). Loaded with the area. */
import { namespaces } from './namespaces';

export const resources = namespaces(
  import.meta.glob<{ default: Record<string, unknown> }>(
    [
      '../locales/sv/*.json',
      '!../locales/sv/{common,public,account,registration,errors,routes,legal}.json',
      // The server's texts are a chunk of their own (i18n/groups.ts `SERVER_NAMESPACE`), loaded with the area too.
      '!../locales/sv/server.json',
      // The audit pages bring their own texts (pages/audit/texts.ts): few users open them.
      '!../locales/sv/audit.json',
      // So do the data-rights pages (pages/dataRights/texts.ts).
      '!../locales/sv/dataRights.json',
      // BankID's texts load with its panel (components/bankid/texts.ts).
      '!../locales/sv/bankid.json',
    ],
    { eager: true },
  ),
);
