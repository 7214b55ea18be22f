//! This package's integration tests, one module per former test file, in one
//! binary: each test binary links the whole AWS SDK (about 60 MB and a link
//! step apiece), and one per file filled CI's disk.

mod common;

mod bankid;
mod identity;
mod sessions_and_passwords;
mod sign_in_check;
mod totp;
