// The browser tests' second shard: every flow that changes data. infra/test.sh
// runs it on its own gateway, table and stand-in beside shard-pages.mjs;
// index.test.mjs runs both shards one after the other on one gateway.
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/shard-flows.mjs
import './roles.e2e.mjs';
import './account.e2e.mjs';
import './totp.e2e.mjs';
import './contacts.e2e.mjs';
import './contactPermissions.e2e.mjs';
import './registration.e2e.mjs';
import './subscriptions.e2e.mjs';
import './people.e2e.mjs';
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
import './everyFile.mjs';
