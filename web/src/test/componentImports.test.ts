// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { componentImports } from './componentImports';

const plugin = componentImports();
const transform = (code: string, id = '/app/src/pages/Page.tsx') =>
  (plugin.transform as (code: string, id: string) => { code: string } | null).call({}, code, id)?.code ?? code;

describe('the unit tests load each antd component and icon from its own module', () => {
  test('named imports from antd and the icons become one import each, on the same line', () => {
    const out = transform('import { Button, Table as T, theme } from "antd";\nimport { SearchOutlined, createFromIconfontCN } from "@ant-design/icons";\nrest();');
    expect(out.split('\n')).toEqual([
      'import Button from "antd/lib/button"; import T from "antd/lib/table"; import theme from "antd/lib/theme";',
      'import { createFromIconfontCN } from "@ant-design/icons"; import SearchOutlined from "@ant-design/icons/lib/icons/SearchOutlined";',
      'rest();',
    ]);
  });

  test('an import over several lines keeps its lines', () => {
    expect(transform('import {\n  Button,\n  Card,\n} from "antd";\nrest();')).toBe('import Button from "antd/lib/button"; import Card from "antd/lib/card";\n\n\n\nrest();');
  });

  test('what is not a component or an icon keeps its import, and node_modules are left as they are', () => {
    expect(transform('import { NotAComponent, Space } from "antd";')).toBe('import { NotAComponent } from "antd"; import Space from "antd/lib/space";');
    expect(transform('import { Button } from "antd";', '/app/node_modules/x/index.js')).toBe('import { Button } from "antd";');
    expect(transform('import Icon from "@ant-design/icons";')).toBe('import Icon from "@ant-design/icons";');
  });

  test('every name the app imports from antd or the icons has a module of its own (no file loads a whole index)', () => {
    const src = fileURLToPath(new URL('..', import.meta.url));
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
    const left = new Set<string>();
    let imports = 0;
    for (const f of files) {
      const code = readFileSync(join(src, f), 'utf8');
      for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(antd|@ant-design\/icons)';/g)) {
        const values = m[1].split(',').map((s) => s.trim()).filter((s) => s && !s.startsWith('type '));
        if (!values.length) continue;
        imports++;
        const out = transform(`import { ${values.join(', ')} } from "${m[2]}";`);
        if (/from "(antd|@ant-design\/icons)";/.test(out)) left.add(`${f}: ${out}`);
      }
    }
    expect(imports).toBeGreaterThan(50);
    expect([...left]).toEqual([]);
  });
});
