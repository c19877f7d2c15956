//! Workspace-level tests: the whole path a site takes, with the control plane and the edge
//! in one process over real sockets (`tests/publish_to_edge.rs`). This crate is the one place
//! besides the benchmarks allowed to depend on both servers; its library is empty.
