// The browser tests' cases shard: the flows of cases, hours, the catalogue,
// collaboration, statistics, audit, content and the add-on services.
// infra/test.sh runs it on its own gateway, table and stand-in beside
// shard-accounts.mjs and shard-pages.mjs; index.test.mjs runs every shard one
// after another on one gateway.
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/shard-cases.mjs
import './cases.e2e.mjs';
import './hours.e2e.mjs';
import './catalogue.e2e.mjs';
import './collaboration.e2e.mjs';
import './edge.e2e.mjs';
import './statistics.e2e.mjs';
import './audit.e2e.mjs';
import './content.e2e.mjs';
import './search.e2e.mjs';
import './addons.e2e.mjs';
import './pages.e2e.mjs';
import './inkasso.e2e.mjs';
import './meeting.e2e.mjs';
import './languageData.e2e.mjs';
import './mailSettings.e2e.mjs';
import './dataRights.e2e.mjs';
import './bankid.e2e.mjs';
// Last in its shard (and so in index.test.mjs): publishing new terms and
// privacy versions makes every customer signing in afterwards answer the
// acceptance question first.
import './legal.e2e.mjs';
