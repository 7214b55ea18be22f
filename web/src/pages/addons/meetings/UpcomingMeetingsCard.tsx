/**
 * The dashboards' upcoming video meetings: the customer's
 * and contact's booked meetings (when the service is bought), the lawyer's
 * booked times; each with its link, and a link to the meeting list.
 */
import './texts';
import { useList } from '../../../api/useList';
import { PlainCard, PlainList, PlainListItem, PlainListMeta } from '../../../components/PlainCard';
import { PlainCol as Col } from '../../../components/plain/PlainGrid';
import { Lines } from '../../../components/Skeletons';
import { useTranslation } from 'react-i18next';
import Link from '../../../components/Link';
import type { Role } from '../../../auth/roles';
import { listLawyerSlots, listMeetings, type Meeting } from '../../../api/meetings';
import { pathFor } from '../../../routes/pathFor';
import { menuShows } from '../../../routes/roleTables';
import { useSession } from '../../../store/session';
import { hasService } from '../../subscriptions/customerServices';
import { isUpcoming, stockholm } from './time';

const VIDEO_MEETING = 6;
/** The card lists at most this many. */
const SHOWN = 5;

export default function UpcomingMeetingsCard({ role }: { role: Role }) {
  const { t } = useTranslation('meetings');
  const purchased = useSession((s) => s.services.purchased_services);
  const userType = useSession((s) => s.user?.user_type);
  const permissions = useSession((s) => s.permission);
  const lawyer = role === 'lawyer';
  const shown = lawyer || ((role === 'customer' || role === 'customerContact') && hasService(purchased, VIDEO_MEETING));
  const { rows: meetings } = useList(async () => {
    if (!shown) return [];
    const all: Meeting[] = lawyer ? (await listLawyerSlots()).flatMap((x) => (x.meeting ? [x.meeting] : [])) : await listMeetings();
    return all.filter((x) => isUpcoming(x.start, x.minutes)).slice(0, SHOWN);
  }, `${shown}:${lawyer}`);
  if (!shown) return null;
  const listPath = pathFor(role, 'videoMeeting');
  // "All meetings" only where the menu has the meetings page (a contact's menu has none).
  const listed = menuShows(role, 'videoMeeting', { userType, permissions });
  return (
    <Col xs={24} lg={12}>
      <PlainCard
        title={t('dashboard.title')}
        data-testid="dashboard-meetings"
        extra={
          listed && (
            <Link to={listPath} data-testid="dashboard-meetings-all">
              {t('dashboard.all')}
            </Link>
          )
        }
      >
        {/* As antd's Card draws `loading` (without antd: the dashboard draws none, src/budget.test.ts). */}
        {meetings === null ? (
          <Lines rows={4} title={false} />
        ) : (
        <PlainList
          size="small"
          empty={t('dashboard.empty')}
          items={meetings}
          render={(m) => (
            <PlainListItem
              data-testid={`dashboard-meeting-${m.uid}`}
              actions={[
                <a key="join" href={m.room_url} target="_blank" rel="noopener noreferrer">
                  {t('list.join')}
                </a>,
              ]}
            >
              <PlainListMeta title={`${stockholm(m.start)} · ${t('minutes', { count: m.minutes })}`} description={`${m.case_number} · ${lawyer ? m.customer_name : m.lawyer_name}`} />
            </PlainListItem>
          )}
        />
        )}
      </PlainCard>
    </Col>
  );
}
