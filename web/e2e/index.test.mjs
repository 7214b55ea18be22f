// Node 20's test runner only picks up files named like *.test.mjs when given a
// directory (`node --test web/e2e/`); this entry runs the whole browser suite
// on one gateway: every shard, one after another (infra/test.sh runs them
// side by side, each on its own gateway and table). Shared launch and sign-in
// helpers are in helpers.mjs.
//
// The pages' shard first: it reads the seeded world before the flows change
// it, as it does on its own gateway; the cases shard ends with legal.e2e.mjs.
import './shard-pages.mjs';
import './shard-accounts.mjs';
import './shard-cases.mjs';
