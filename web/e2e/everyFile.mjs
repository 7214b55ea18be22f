// A browser test file in no shard would never run: the check runs in
// shard-accounts.mjs (and so in every run of the suite, sharded or not).
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const SHARDS = ['shard-pages.mjs', 'shard-accounts.mjs', 'shard-cases.mjs'];

test('every *.e2e.mjs file is in exactly one shard', () => {
  const dir = new URL('.', import.meta.url);
  const listed = SHARDS.flatMap((s) =>
    [...readFileSync(new URL(s, dir), 'utf8').matchAll(/^import '\.\/([^']+\.e2e\.mjs)';$/gm)].map((m) => m[1]),
  );
  const files = readdirSync(dir).filter((f) => f.endsWith('.e2e.mjs'));
  assert.deepEqual(files.filter((f) => !listed.includes(f)), [], 'in no shard');
  assert.deepEqual(listed.filter((f, i) => listed.indexOf(f) !== i), [], 'in two shards (or twice in one)');
});
