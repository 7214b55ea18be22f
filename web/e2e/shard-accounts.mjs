// The browser tests' accounts shard: the flows that change accounts, people,
// contacts, registrations and subscriptions. infra/test.sh runs it on its own
// gateway, table and stand-in beside shard-cases.mjs and shard-pages.mjs;
// index.test.mjs runs every shard one after another on one gateway.
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/shard-accounts.mjs
// First in its shard, on the seeded world before the flows change accounts: it opens each role's
// dashboard, case list and first demo case. (In the pages shard, after the crawl, that shard ran
// two minutes longer than the others.)
import './a11y.e2e.mjs';
import './roles.e2e.mjs';
import './account.e2e.mjs';
import './totp.e2e.mjs';
import './contacts.e2e.mjs';
import './contactPermissions.e2e.mjs';
import './registration.e2e.mjs';
import './subscriptions.e2e.mjs';
import './people.e2e.mjs';
import './erasure.e2e.mjs';
import './everyFile.mjs';
