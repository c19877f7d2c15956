//! Logging with tracing: human-readable by default, JSON lines with `LOG_FORMAT=json`.
//! `RUST_LOG` sets the filter (default `info`).

use tracing_subscriber::{EnvFilter, fmt};

pub fn init(format: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = if format == "json" {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
