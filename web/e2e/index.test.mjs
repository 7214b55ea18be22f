// Node 20's test runner only picks up files named like *.test.mjs when given a
// directory (`node --test web/e2e/`); this entry loads the e2e suite. Shared
// launch and sign-in helpers are in helpers.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
import './crawl.e2e.mjs';
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
// Last: it reads pages the earlier tests filled (cases in every role's lists).
import './a11y.e2e.mjs';
// After everything: publishing new terms and privacy versions makes every
// customer signing in afterwards answer the acceptance question first.
import './legal.e2e.mjs';

// A browser test file missing from the list above would never run.
test('every *.e2e.mjs file is loaded by this entry', () => {
  const listed = readFileSync(new URL(import.meta.url), 'utf8');
  const files = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.e2e.mjs'));
  assert.deepEqual(files.filter((f) => !listed.includes(`'./${f}'`)), []);
});
