//! The hostile-tenant suite on the control plane (issue 20, `docs/security.md`): each test
//! performs an attack one account, one business administrator or one anonymous caller could
//! try against the others, and asserts what the attacker gets: nothing. Every test runs on
//! SQLite and on PostgreSQL.

mod accounts;
mod budgets;
mod domains;
mod fair_shares;
pub(crate) mod files;
mod forms;
mod holes;
mod library;
mod mail;
mod pictures;
mod storage;
