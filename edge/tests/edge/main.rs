//! The edge over real sockets, against real databases (every database test runs on SQLite and
//! on PostgreSQL) and a local object store holding deploys written as the publisher writes them.

mod feed;
mod forms;
mod front;
mod front_tls;
mod h2_conformance;
mod h2_frames;
mod hostile;
mod hot;
mod listeners;
mod live;
mod live_encodings;
mod memory;
mod ops;
mod outage;
mod pebble;
mod refresh;
mod routing;
mod seo;
mod smuggling;
mod statics;
mod support;
mod tls;
