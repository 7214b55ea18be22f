import type { MenuContext, MenuDef } from '../routes/roleTables';

/** Menu entries visible in `ctx` (children filtered too; a group left empty disappears). */
export function visibleMenu(menu: MenuDef[], ctx: MenuContext): MenuDef[] {
  const out: MenuDef[] = [];
  for (const item of menu) {
    if (item.visible && !item.visible(ctx)) continue;
    if (item.children) {
      const children = visibleMenu(item.children, ctx);
      if (children.length === 0) continue;
      out.push({ ...item, children });
    } else {
      out.push(item);
    }
  }
  return out;
}

function withSlash(p: string): string {
  return p.endsWith('/') ? p : `${p}/`;
}

/**
 * The leaf entry matching `pathname`: exact match first, else the longest
 * path that is a prefix of it (the dashboard, i.e. the role root, only matches exactly).
 */
export function selectedMenu(menu: MenuDef[], pathname: string, prefix: string): { id: string; parents: string[] } | null {
  const current = withSlash(pathname);
  let best: { id: string; parents: string[]; len: number } | null = null;
  const walk = (items: MenuDef[], parents: string[]) => {
    for (const item of items) {
      if (item.children) walk(item.children, [...parents, item.id]);
      if (!item.path) continue;
      const p = withSlash(item.path);
      const exact = p === current;
      const under = [p, ...(item.section ? [withSlash(item.section)] : [])].filter((x) => x !== withSlash(prefix) && current.startsWith(x));
      const prefixMatch = under.length > 0;
      if (exact) {
        if (!best || best.len !== Infinity) best = { id: item.id, parents, len: Infinity };
      } else if (prefixMatch) {
        const len = Math.max(...under.map((x) => x.length));
        if (!best || len > best.len) best = { id: item.id, parents, len };
      }
    }
  };
  walk(menu, []);
  if (!best) return null;
  const { id, parents } = best;
  return { id, parents };
}
