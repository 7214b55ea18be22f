//! This package's integration tests, one module per former test file, in one
//! binary: each test binary links the whole AWS SDK (about 60 MB and a link
//! step apiece), and one per file filled CI's disk.

mod world;

mod audit_trail;
mod authz_matrix;
mod catalogue_paths;
mod data_rights;
mod edge;
mod erasure;
mod errors;
mod event_mail;
mod faults;
mod gateway;
mod mail_limits;
mod openapi_examples;
mod property_matrix;
mod repair;
