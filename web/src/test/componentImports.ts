import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * In the unit tests, `import { Button, Table } from 'antd'` becomes one import per component from antd's CommonJS
 * build (`antd/lib/button`, `antd/lib/table`), and `import { SearchOutlined } from '@ant-design/icons'` one per icon.
 *
 * Why: each test file runs in a fresh worker, which Node loads its dependencies into anew. There `antd` is antd's
 * CommonJS index, which requires every component (about 1,500 modules, 0.8 CPU-s), and `@ant-design/icons` every icon
 * (about 1,700 modules, 0.65 CPU-s), in every file. Measured on the whole suite: 249 → 229 CPU-s, and the files'
 * import time 50 → 25 s. The production build needs none of this: it bundles only what the pages import.
 *
 * The same modules as the index's (the index itself only re-exports them), so a page under test draws exactly what it
 * did, with one copy of antd. A name the indexes do not list as a component or an icon (a type, a helper, a default
 * import) keeps its import from the package itself.
 */
export function componentImports(): Plugin {
  const require = createRequire(import.meta.url);
  const antdLib = dirname(require.resolve('antd'));
  const iconsLib = dirname(require.resolve('@ant-design/icons'));
  // antd's index: `Object.defineProperty(exports, "Button", { … return _button.default; … })` and
  // `var _button = _interopRequireDefault(require("./button"));`.
  const antdIndex = readFileSync(join(antdLib, 'index.js'), 'utf8');
  const modules = new Map([...antdIndex.matchAll(/var (_\w+) = _interopRequire\w+\(require\("\.\/([^"]+)"\)\);/g)].map((m) => [m[1], m[2]]));
  const components = new Map<string, string>();
  for (const m of antdIndex.matchAll(/Object\.defineProperty\(exports, "(\w+)", \{\s*enumerable: true,\s*get: function \(\) \{\s*return (_\w+)\.default;/g)) {
    const path = modules.get(m[2]);
    if (path) components.set(m[1], `antd/lib/${path}`);
  }
  if (components.size < 50) throw new Error(`componentImports: found only ${components.size} components in antd's index`);
  const iconPath = (name: string) =>
    /^[A-Z]\w*(Outlined|Filled|TwoTone)$/.test(name) && existsSync(join(iconsLib, 'icons', `${name}.js`)) ? `@ant-design/icons/lib/icons/${name}` : null;
  const pathOf = (pkg: string, name: string) => (pkg === 'antd' ? (components.get(name) ?? null) : iconPath(name));
  return {
    name: 'component-imports',
    enforce: 'post',
    // The unit tests' server only: a production build made by a test (the page budgets) bundles as production does.
    apply: (_, env) => env.command === 'serve' && env.mode === 'test',
    transform(code, id) {
      if (id.includes('/node_modules/') || !/\bfrom\s*["'](antd|@ant-design\/icons)["']/.test(code)) return null;
      const out = code.replace(/import\s*\{([^}]*)\}\s*from\s*["'](antd|@ant-design\/icons)["'];?/g, (whole, list: string, pkg: string) => {
        const kept: string[] = [];
        const own: string[] = [];
        for (const spec of list.split(',').map((s) => s.trim()).filter(Boolean)) {
          const [name, local = name] = spec.split(/\s+as\s+/).map((s) => s.trim());
          const path = pathOf(pkg, name);
          if (path) own.push(`import ${local} from ${JSON.stringify(path)};`);
          else kept.push(spec);
        }
        // On as many lines as before, so that the lines of errors' stacks stay where they were.
        const lines = '\n'.repeat(whole.split('\n').length - 1);
        return [...(kept.length ? [`import { ${kept.join(', ')} } from ${JSON.stringify(pkg)};`] : []), ...own].join(' ') + lines;
      });
      return out === code ? null : { code: out, map: null };
    },
  };
}
