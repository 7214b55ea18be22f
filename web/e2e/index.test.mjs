// Node 20's test runner only picks up files named like *.test.mjs when given a
// directory (`node --test web/e2e/`); this entry loads the e2e suite.
import './roles.e2e.mjs';
