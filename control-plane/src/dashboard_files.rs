//! The dashboard's built files (`dashboard/dist`), as a static host serves a single-page app:
//!
//! - **precompressed**: the build writes a `.br` and a `.gz` beside each text file
//!   (`dashboard/scripts/precompress.mjs`) and tower-http's `ServeDir` sends the one the
//!   browser accepts (br first), with `Vary: Accept-Encoding`; nothing is compressed per
//!   request;
//! - **cached by name**: Vite names every file under `/assets/` by its content hash, so those
//!   are cached for a year as `immutable`; everything else (`index.html`, the SPA fallback for
//!   deep links, the Swagger UI files) is revalidated on each visit (`no-cache`), so a new
//!   release shows at once;
//! - a missing asset is a 404, not the app's `index.html` (which a browser would refuse as a
//!   script, and which no cache should keep under an asset's name).

use std::path::Path;

use axum::{
    Router,
    http::{HeaderValue, header},
};
use tower_http::{
    services::{ServeDir, ServeFile},
    set_header::SetResponseHeaderLayer,
};

/// `Cache-Control` of content-addressed files.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of every other file: kept, but asked again each time.
pub const REVALIDATE: &str = "no-cache";

fn layers<S: Clone + Send + Sync + 'static>(router: Router<S>, cache: &'static str) -> Router<S> {
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::VARY,
            HeaderValue::from_static("Accept-Encoding"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static(cache),
        ))
}

/// `/assets/…`: the hashed bundles and styles.
pub fn assets<S: Clone + Send + Sync + 'static>(dist: &Path) -> Router<S> {
    let files = ServeDir::new(dist.join("assets"))
        .precompressed_br()
        .precompressed_gzip();
    layers(Router::new().fallback_service(files), IMMUTABLE)
}

/// Every other path: a file of the build, else `index.html` (the app routes in the browser).
pub fn app<S: Clone + Send + Sync + 'static>(dist: &Path) -> Router<S> {
    let index = ServeFile::new(dist.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    let files = ServeDir::new(dist)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(index);
    layers(Router::new().fallback_service(files), REVALIDATE)
}
