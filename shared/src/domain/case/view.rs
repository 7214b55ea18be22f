//! The one shape in which a case leaves the API.

use serde::Serialize;
use utoipa::ToSchema;

use super::entity::Case;
use crate::domain::policy::{self, Action};
use crate::domain::User;

/// A case as one caller may see it: the only shape in which a case leaves
/// the API (details, lists, statistics, exports). Its one constructor,
/// [`CaseView::for_user`], redacts, so a new view cannot forget to: a view
/// built from a bare [`Case`] does not type-check.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct CaseView(Case);

impl CaseView {
    /// The case as `user` may see it: the short internal description is for
    /// the provider's people only.
    pub fn for_user(user: &User, mut c: Case) -> CaseView {
        if !policy::may(user, Action::SeeInternal) {
            c.short_internal_description.clear();
        }
        CaseView(c)
    }

    /// Many cases for one caller.
    pub fn all_for(user: &User, cases: impl IntoIterator<Item = Case>) -> Vec<CaseView> {
        cases.into_iter().map(|c| CaseView::for_user(user, c)).collect()
    }
}

impl std::ops::Deref for CaseView {
    type Target = Case;
    fn deref(&self) -> &Case {
        &self.0
    }
}

// The view's schema is the case's: the documented shape stays `Case`.
impl utoipa::PartialSchema for CaseView {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <Case as utoipa::PartialSchema>::schema()
    }
}

impl ToSchema for CaseView {
    fn name() -> std::borrow::Cow<'static, str> {
        <Case as ToSchema>::name()
    }
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        <Case as ToSchema>::schemas(schemas)
    }
}
