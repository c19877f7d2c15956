//! Accounts and sessions: the login limiter, the session cookie, what business administrators
//! may change, and the dashboard's own headers.
