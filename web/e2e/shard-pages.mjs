// The browser tests' first shard: every page of every role, on a freshly
// seeded gateway (demo accounts and the demo cases; the crawl makes through
// the API the little more its routes need). infra/test.sh
// runs it on its own gateway, table and stand-in beside the flows' shards
// (shard-accounts.mjs, shard-cases.mjs); index.test.mjs runs every shard one
// after another on one gateway.
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/shard-pages.mjs
import './crawl.e2e.mjs';
import './apiReference.e2e.mjs';
