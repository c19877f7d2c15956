//! API tests: a real control plane on port 0, real HTTP, a fresh database per test, each
//! test run on SQLite and on PostgreSQL. One test binary keeps link time short.

mod helpers;
#[path = "../../../edge/tests/edge/pebble.rs"]
mod pebble;
mod smtp;

mod account;
mod authz_matrix;
mod bad_input;
mod blocks;
mod business;
mod collection_pages;
mod collections;
mod conversions;
mod dashboard_files;
mod domains;
mod fleet;
mod form_history;
mod hostile;
mod identity;
mod imports;
mod openapi;
mod ops;
mod pages;
mod photos;
mod process;
mod projects;
mod publish;
mod redirects;
mod republish;
mod sections;
mod session;
mod spec_calls;
mod stripe;
mod template_sites;
mod templates;
mod uploads;
