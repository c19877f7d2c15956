//! Smaller holes: redirects to another host from a splat, formulas in CSV exports, values kept
//! across a field type change, outbound fetches to private networks.
