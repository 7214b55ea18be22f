import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router';
import { hasPermission } from '../auth/permissions';
import Loading from '../components/Loading';
import NotFound from '../pages/NotFound';
import Placeholder from '../pages/Placeholder';
import type { RoleModule, RouteDef } from '../routes/types';
import { useSession } from '../store/session';
import AppLayout from './AppLayout';

function RoutePage({ def, prefix }: { def: RouteDef; prefix: string }) {
  const { t } = useTranslation();
  const userType = useSession((s) => s.user?.user_type);
  const permissions = useSession((s) => s.permission);
  const title = t(def.titleKey, { ns: 'routes' });

  useEffect(() => {
    document.title = `${title} | ${t('app.name')}`;
  }, [title, t]);

  if (def.requires && !hasPermission(userType, permissions, def.requires)) {
    return <Navigate to={prefix} replace />;
  }
  const Page = def.Component ?? Placeholder;
  return <Page titleKey={def.titleKey} />;
}

/** A role's area: the common layout around that role's route table. */
export default function RoleApp({ module }: { module: RoleModule }) {
  return (
    <AppLayout module={module}>
      <Suspense fallback={<Loading />}>
        <Routes>
          {module.routes.map((def) =>
            def.path === '' ? (
              <Route key="index" index element={<RoutePage def={def} prefix={module.prefix} />} />
            ) : (
              <Route key={def.path} path={def.path} element={<RoutePage def={def} prefix={module.prefix} />} />
            ),
          )}
          <Route path="*" element={<NotFound embedded />} />
        </Routes>
      </Suspense>
    </AppLayout>
  );
}
