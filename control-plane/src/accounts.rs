//! Accounts: passwords, sessions and the signed-in user ([`auth`]), who may see which project
//! ([`authz`]), and the same-origin rule that guards the session cookie ([`csrf`]).

pub mod auth;
pub mod authz;
pub mod csrf;
