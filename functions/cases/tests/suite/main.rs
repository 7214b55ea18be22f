//! This package's integration tests, one module per former test file, in one
//! binary: each test binary links the whole AWS SDK (about 60 MB and a link
//! step apiece), and one per file filled CI's disk.

mod common;

mod additional_hours;
mod cases;
mod conflict_index;
mod documents;
mod followers;
mod hours;
mod idempotency;
mod rights;
