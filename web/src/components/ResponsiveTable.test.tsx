import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import postcss from 'postcss';
import Table, { withCellLabels } from './ResponsiveTable';

const { renderComponent } = await import('../test/renderApp');

describe('tables on phones', { timeout: 120_000 }, () => {
  it('labels every cell with its column title (the phone card shows it beside the value)', async () => {
    const r = await renderComponent(
      <Table<{ id: number; name: string }>
        rowKey="id"
        data-testid="t"
        dataSource={[{ id: 1, name: 'Acme AB' }]}
        pagination={false}
        columns={[
          { title: 'Namn', dataIndex: 'name', onCell: () => ({ className: 'own' }) },
          { title: 'Åtgärder', key: 'actions', render: () => <button data-testid="approve">Godkänn</button> },
          { title: () => 'sorted', key: 'x', render: () => 'x' },
        ]}
      />,
    );
    const cells = [...document.querySelectorAll('.responsive-table .ant-table-tbody td')];
    expect(cells.map((c) => c.getAttribute('data-label'))).toEqual(['Namn', 'Åtgärder', '']);
    // The column's own cell props are kept.
    expect(cells[0].classList.contains('own')).toBe(true);
    expect(r.$('approve')).not.toBeNull();
    await r.unmount();
  });

  it('labels the columns of a group too', () => {
    const cols = withCellLabels<{ a: number }>([{ title: 'Grupp', children: [{ title: 'Inre', dataIndex: 'a' }] }]);
    const inner = (cols[0] as { children: { onCell: (r: { a: number }) => Record<string, string> }[] }).children[0];
    expect(inner.onCell({ a: 1 })['data-label']).toBe('Inre');
  });

  it('the stylesheet turns rows into cards below 768 px, labels shown, no header and no sideways scroll', () => {
    // The areas' sheet (loaded with an area; only the areas draw tables).
    const css = readFileSync(join(__dirname, '..', 'layout', 'area.css'), 'utf8');
    const phone: string[] = [];
    postcss.parse(css).walkAtRules('media', (m) => {
      if (/max-width:\s*767px/.test(m.params)) m.walkRules((r) => void phone.push(`${r.selector} { ${r.nodes.map(String).join('; ')} }`));
    });
    const rules = phone.join('\n');
    expect(rules).toMatch(/\.responsive-table \.ant-table-thead[^{]*\{[^}]*display: none/);
    expect(rules).toMatch(/\.responsive-table \.ant-table-tbody > tr > td::before \{[^}]*content: attr\(data-label\)/);
    expect(rules).toMatch(/\.responsive-table \.ant-table-content[^{]*\{[^}]*overflow: visible !important/);
  });
});
