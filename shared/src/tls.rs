//! The process's TLS cryptography: ring, for every rustls user in the process.
//!
//! rustls picks a default provider by itself only when exactly one of its providers is compiled
//! in. This workspace compiles ring alone (the edge's listeners, instant-acme, lettre, rcgen),
//! but reqwest 0.13 offers rustls either with aws-lc-rs bundled (which would make two) or with no
//! provider, and then asks rustls for the process's default and panics without one. So the
//! workspace takes reqwest's `rustls-no-provider` and object_store's `ring`, and every process
//! entry calls [`install_crypto_provider`] before any HTTP client is built: the two servers'
//! `main`, the test support (`testing::TestDb::new`, which every test and bench with a server
//! goes through), and the few test and bench processes without a database.

/// Makes ring the process's default rustls provider. Idempotent: a second call, or a provider
/// already installed, leaves things as they are.
pub fn install_crypto_provider() {
    // `Err` only says a provider is installed already, which is what this call wants.
    let _ = rustls::crypto::ring::default_provider().install_default();
}
