//! Customer-contact permissions as the checks ask them (spec §3, §5): a
//! customer contact holds only the permissions listed on its user; everyone
//! else holds every permission "in this sense" (role rules are the
//! policy's own). The codes themselves are [`crate::domain::permissions`].

use crate::domain::permissions::{Permission, PERMISSIONS_REV};
use crate::domain::{Role, User};
use crate::error::ApiError;

/// A contact's permissions as they apply now: the stored list, plus
/// `view_all_cases` and `view_time_bank` on a row written before those
/// existed (every contact then saw all cases and the time bank; they keep
/// that until the customer saves the contact's permissions again). Sorted.
pub fn listed(user: &User) -> Vec<Permission> {
    let mut out = user.permissions.clone();
    if user.permissions_rev < PERMISSIONS_REV {
        out.extend([Permission::ViewAllCases, Permission::ViewTimeBank]);
    }
    out.sort();
    out.dedup();
    out
}

/// Whether `user` holds `permission`: contacts only the listed ones, everyone else all.
pub fn holds(user: &User, permission: Permission) -> bool {
    match user.role() {
        Some(Role::CustomerContact) => {
            user.permissions.contains(&permission)
                || (user.permissions_rev < PERMISSIONS_REV && matches!(permission, Permission::ViewAllCases | Permission::ViewTimeBank))
        }
        _ => true,
    }
}

/// The one check every endpoint uses: 403 unless `user` holds `permission`.
pub fn require(user: &User, permission: Permission) -> Result<(), ApiError> {
    if holds(user, permission) {
        Ok(())
    } else {
        Err(ApiError::Forbidden)
    }
}

/// What `GET /api/permission/` answers: a contact's own list, everyone else all codes.
pub fn effective(user: &User) -> Vec<Permission> {
    Permission::ALL.into_iter().filter(|p| holds(user, *p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::tests_support::sample;

    #[test]
    fn contacts_hold_only_listed_permissions() {
        let mut contact = sample(Some(4));
        contact.permissions = vec![Permission::AddCase, Permission::ViewBisnode];
        assert!(holds(&contact, Permission::AddCase));
        assert!(holds(&contact, Permission::ViewBisnode));
        assert!(!holds(&contact, Permission::ViewContact));
        assert!(matches!(require(&contact, Permission::ViewContact), Err(ApiError::Forbidden)));
        assert!(require(&contact, Permission::AddCase).is_ok());
        assert_eq!(effective(&contact), vec![Permission::ViewBisnode, Permission::AddCase]);

        contact.permissions.clear();
        assert!(effective(&contact).is_empty());
        for p in Permission::ALL {
            assert!(require(&contact, p).is_err());
        }
    }

    #[test]
    fn everyone_else_holds_every_permission() {
        for user_type in [Some(1), Some(2), Some(3)] {
            let u = sample(user_type);
            assert_eq!(effective(&u), Permission::ALL.to_vec());
        }
        let mut admin = sample(None);
        admin.is_staff = true;
        // a stray list on a non-contact changes nothing
        admin.permissions = vec![Permission::AddCase];
        assert!(require(&admin, Permission::ViewContact).is_ok());
    }

    #[test]
    fn contacts_stored_before_the_case_permissions_keep_all_cases_and_the_time_bank() {
        let mut old = sample(Some(4));
        old.permissions = vec![Permission::AddCase];
        old.permissions_rev = 0;
        assert!(holds(&old, Permission::ViewAllCases) && holds(&old, Permission::ViewTimeBank));
        assert!(!holds(&old, Permission::ViewContact));
        assert_eq!(listed(&old), vec![Permission::AddCase, Permission::ViewAllCases, Permission::ViewTimeBank]);
        assert_eq!(effective(&old), listed(&old));
        // Saved again (the current revision): only what the customer chose.
        old.permissions_rev = PERMISSIONS_REV;
        assert!(!holds(&old, Permission::ViewAllCases) && !holds(&old, Permission::ViewTimeBank));
        assert_eq!(listed(&old), vec![Permission::AddCase]);
    }
}
