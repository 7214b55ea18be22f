//! This package's integration tests, one module per former test file, in one
//! binary: each test binary links the whole AWS SDK (about 60 MB and a link
//! step apiece), and one per file filled CI's disk.

mod layers;
mod openapi_file;
mod openapi_valid;
mod patterns;
mod template_routes;
mod tracker_references;
