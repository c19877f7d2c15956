//! The Vitrine control plane: the dashboard's API (accounts, projects, pages, templates,
//! uploads), authorization, mail, and the built dashboard. `main.rs` only parses the command
//! line; everything testable lives here.

pub mod accounts;
pub mod base;
pub mod block_checks;
pub mod collector;
pub mod commands;
pub mod confine;
pub mod conflicts;
pub mod conversions;
pub mod dashboard_files;
pub mod domains;
pub mod error;
pub mod external_lists;
pub mod extract;
pub mod mail;
pub mod metrics;
pub mod nul;
pub mod outbound;
pub mod page_starter;
pub mod pagination;
pub mod photos;
pub mod pictures;
pub mod projects;
pub mod publish;
pub mod records;
pub mod rendering;
pub mod responses;
pub mod routes;
pub mod seed;
pub mod startup;
pub mod state;
pub mod throttle;
