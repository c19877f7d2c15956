//! Tenant code (owner-written templates) renders within an output cap, a time cap and off the
//! visitor threads: an over-budget page fails alone.
