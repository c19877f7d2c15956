//! Domains at the edge: a `www.` twin never overrides the owner of its apex, and one tenant's
//! certificate orders cannot starve the others'.
