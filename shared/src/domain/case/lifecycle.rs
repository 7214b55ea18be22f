//! The status state machine of spec §4 as a pure function: who first (the
//! policy's answer), then the status precondition.

use crate::error::Msg;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::entity::{Case, CaseStatus};
use crate::domain::policy;
use crate::domain::User;

/// The status actions of spec §4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Transition {
    /// Staff verified the case: Draft → Waiting (or straight to the
    /// direct-assign lawyer: Draft → Inprogress).
    Publish,
    /// A lawyer takes an available case: Waiting → Inprogress.
    Accept,
    /// Inprogress → Complete.
    Complete,
    /// Complete → Inprogress.
    Reopen,
    /// Back to available: Inprogress → Waiting.
    Transfer,
    /// The customer side takes back its draft: Draft → Withdrawn.
    Withdraw,
}

pub const ONLY_WAITING_CAN_START: Msg = Msg::OnlyWaitingCanStart;
pub const ONLY_IN_PROGRESS_CAN_COMPLETE: Msg = Msg::OnlyInProgressCanComplete;
pub const STATUS_CHANGE_NOT_ALLOWED: Msg = Msg::StatusChangeNotAllowed;

/// The outcome of an allowed transition: the new status and lawyer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    pub status: CaseStatus,
    pub lawyer: Option<String>,
}

/// The state machine. Who first ([`policy::may_move`]: an unauthorised user
/// learns nothing about the status), then the status precondition. `direct_lawyer_ok` tells
/// whether the direct-assign lawyer (if any) is an active lawyer.
pub fn transition(user: &User, case: &Case, t: Transition) -> Result<Moved, Msg> {
    if !policy::may_move(user, case, t) {
        return Err(STATUS_CHANGE_NOT_ALLOWED);
    }
    match t {
        Transition::Publish => {
            if case.status != CaseStatus::Draft {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            Ok(match &case.direct_assign_lawyer {
                Some(l) => Moved { status: CaseStatus::Inprogress, lawyer: Some(l.clone()) },
                None => Moved { status: CaseStatus::Waiting, lawyer: None },
            })
        }
        Transition::Accept => {
            if case.status != CaseStatus::Waiting {
                return Err(ONLY_WAITING_CAN_START);
            }
            Ok(Moved { status: CaseStatus::Inprogress, lawyer: Some(user.uid.clone()) })
        }
        Transition::Complete => {
            if case.status != CaseStatus::Inprogress {
                return Err(ONLY_IN_PROGRESS_CAN_COMPLETE);
            }
            Ok(Moved { status: CaseStatus::Complete, lawyer: case.lawyer.clone() })
        }
        Transition::Reopen => {
            if case.status != CaseStatus::Complete {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            if case.lawyer.is_none() {
                // Nobody to work on it: it goes back to the available list.
                return Ok(Moved { status: CaseStatus::Waiting, lawyer: None });
            }
            Ok(Moved { status: CaseStatus::Inprogress, lawyer: case.lawyer.clone() })
        }
        Transition::Transfer => {
            if case.status != CaseStatus::Inprogress {
                return Err(STATUS_CHANGE_NOT_ALLOWED);
            }
            Ok(Moved { status: CaseStatus::Waiting, lawyer: None })
        }
        Transition::Withdraw => {
            if case.status != CaseStatus::Draft {
                return Err(Msg::OnlyDraftCanBeWithdrawn);
            }
            Ok(Moved { status: CaseStatus::Withdrawn, lawyer: None })
        }
    }
}
