//! Visitors cannot open the edge-wide database breaker: input errors are that request's 4xx,
//! and one tenant's slow queries time out on their own.
