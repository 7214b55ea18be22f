// Loaded first in every test worker (vite.config.ts `test.execArgv`), before
// vitest itself: jsdom and the ES modules it require()s (@exodus/bytes, by
// Node's require(esm)) are loaded here, synchronously and once. Loaded later,
// when vitest imports jsdom for a file's environment among its other
// asynchronous imports, Node 20's require(esm) could meet one of those ES
// modules still being linked by an asynchronous import and throw inside its
// loader ("Cannot read properties of undefined (reading 'getStatus')" from
// getModuleJobForRequire; newer Nodes name it a race: "not yet fully
// loaded"): on a loaded machine that failed every test of two files at once.
require('jsdom');
