import { useNavigate } from 'react-router';
import { markRead } from '../../api/collaboration';
import type { Role } from '../../auth/roles';
import type { Notification } from '../../types/collaboration';
import { notificationTarget } from './notificationView';

/**
 * A click on a notification (spec §4, §7): PATCH {unread: false}, then, on
 * success, go where it leads. `after` runs once it is read (close a dropdown,
 * update a list).
 */
export function useOpenNotification(role: Role, after?: (n: Notification) => void) {
  const navigate = useNavigate();
  return async (n: Notification) => {
    try {
      await markRead(n.id);
    } catch {
      return; // notified by the client (spec §8)
    }
    after?.({ ...n, unread: false });
    const to = notificationTarget(role, n);
    if (to) navigate(to);
  };
}
