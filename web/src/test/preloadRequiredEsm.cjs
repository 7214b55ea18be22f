// Loaded first in every test worker (vite.config.ts `test.execArgv`), before vitest itself.
//
// Some CommonJS dependencies require() ES modules (Node's require(esm)). Node 20 breaks such a require() when the
// same ES module is at that moment being loaded by an asynchronous import: it throws inside its loader ("Cannot read
// properties of undefined (reading 'getStatus')" from getModuleJobForRequire, or "not yet fully loaded"). The page
// tests met it: antd's CommonJS build (`import ... from 'antd'`) reaches @ant-design/icons/lib, whose colorUtils.js
// require()s @ant-design/colors/es/generate.js, while the app's `antd/es/...` and `@ant-design/icons/es/...`
// imports, then loaded as a second copy of antd (now one: vite.config.ts `test.alias`), loaded that same file
// asynchronously. On a loaded machine the two met and every test of a file failed at once (CI; customers.test.tsx
// and contacts.test.tsx). Loaded here, synchronously and once, each of those ES modules is done before any
// asynchronous import starts: later imports and require()s only read it.
//
// So that a new one cannot hide as a rare race: after this preload, a require() that loads an ES module for the
// first time throws at once, every run, naming the module. Add it to the list below.
const Module = require('node:module');
const { isModuleNamespaceObject } = require('node:util').types;

const PRELOADED = [
  // jsdom and what it require()s (@exodus/bytes, parse5, @csstools/* through cssstyle): loaded with it.
  'jsdom',
  // Required by @ant-design/icons/lib/colorUtils.js (an ES module by its syntax, in a package without a type).
  '@ant-design/colors/es/generate',
];

// The ES module namespaces the preload loaded: a require() that returns one of these reads a finished module.
const loaded = new WeakSet();
const load = Module._load;
Module._load = function preloading(...args) {
  const exports = load.apply(this, args);
  if (isModuleNamespaceObject(exports)) loaded.add(exports);
  return exports;
};
for (const id of PRELOADED) require(id);

Module._load = function guarded(request, parent, ...rest) {
  const exports = load.call(this, request, parent, ...rest);
  if (isModuleNamespaceObject(exports) && !loaded.has(exports)) {
    throw new Error(
      `${parent?.filename ?? 'a CommonJS module'} require()d the ES module '${request}' after the test preload: ` +
        "add it to PRELOADED in web/src/test/preloadRequiredEsm.cjs (an ES module loaded by require() while an import loads it fails Node's loader).",
    );
  }
  return exports;
};
