//! Business sectors (spec §3): the seeded list and a name's rule.

use crate::error::{FieldErrors, Msg};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::MAX_NAME_LEN;

/// The business sectors seeded the first time the list is read (spec §3).
pub const SEEDED_SECTORS: [&str; 10] = [
    "Consumer goods",
    "Financial",
    "Health care",
    "Industrials",
    "Media",
    "Retail",
    "Telecommunications",
    "Building and construction",
    "Software developer",
    "Others",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BusinessSector {
    pub id: String,
    pub name: String,
}

/// A business sector name: required, at most 100 characters.
pub fn check_sector_name(name: &str) -> FieldErrors {
    let mut e = FieldErrors::new();
    if name.trim().is_empty() {
        e.add("name", Msg::Required);
    } else if name.trim().chars().count() > MAX_NAME_LEN {
        e.add("name", Msg::TooLong);
    }
    e
}
