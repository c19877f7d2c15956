//! The hostile-tenant suite at the edge (issue 20, `docs/security.md`): each test performs an
//! attack a tenant or an anonymous visitor could try against the shared edge, and asserts what
//! the attacker gets: nothing. Every test runs on SQLite and on PostgreSQL.

mod breaker;
mod budgets;
mod churn;
mod domains;
mod fair_shares;
mod files;
mod forms;
mod protocol;
