import { Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import Link from '../../components/Link';
import { roleOfPath } from '../../auth/roles';
import type { RouteId } from '../../routes/catalogue';
import { hasRoute, pathFor } from '../../routes/pathFor';

/** Where staff go from a customer: its details page, edit, packages, company users, department. */
const LINKS: Array<{ id: RouteId; param: 'customer_uid' | 'profile_uid'; label: string }> = [
  { id: 'customerDetails', param: 'customer_uid', label: 'links.details' },
  { id: 'customerUpdate', param: 'profile_uid', label: 'links.edit' },
  { id: 'customerManagePackage', param: 'customer_uid', label: 'links.packages' },
  { id: 'customerUsers', param: 'customer_uid', label: 'links.users' },
  { id: 'departmentConnect', param: 'customer_uid', label: 'links.department' },
];

/**
 * The links of a customer that the area's role has (none outside a role
 * area); `onFollow` e.g. closes the modal they are shown in.
 */
export default function CustomerLinks({ uid, onFollow, size = 'middle' }: { uid: string; onFollow?: () => void; size?: 'small' | 'middle' }) {
  const { t } = useTranslation('customerAdmin');
  const { pathname } = useLocation();
  const role = roleOfPath(pathname);
  if (!role) return null;
  const here = (p: string) => p.replace(/\/$/, '') === pathname.replace(/\/$/, '');
  const links = LINKS.filter((l) => hasRoute(role, l.id))
    .map((l) => ({ ...l, to: pathFor(role, l.id, { [l.param]: uid }) }))
    .filter((l) => !here(l.to));
  if (!links.length) return null;
  return (
    <Space wrap size={size} data-testid="customer-links">
      {links.map((l) => (
        <Link key={l.id} to={l.to} onClick={onFollow} data-testid={`customer-link-${l.id}`}>
          {t(l.label)}
        </Link>
      ))}
    </Space>
  );
}
