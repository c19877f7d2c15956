//! Outbound HTTP fetches made on a site owner's behalf (web fonts at publish time).
//!
//! reqwest is the maintained async HTTP client of the tokio ecosystem (rustls, timeouts,
//! redirect policies, pluggable DNS). The guard follows `docs/design.md#outbound-fetches`:
//! http(s) only; every address a host name resolves to is checked by
//! [`vitrine_shared::outbound::is_public`] inside the client's own resolver, right before it
//! connects, so a name cannot be switched to an internal address between check and use; IP
//! literals (which skip the resolver) are checked before each request and redirect; only
//! ports 80 and 443 may be reached, checked the same way; bodies and time are bounded.
//! Proxy variables in the environment (`HTTP_PROXY`, `ALL_PROXY`, …, which reqwest reads by
//! default) are ignored: a proxy would resolve and connect on our behalf, out of the
//! resolver's sight. `FETCH_ALLOW_PRIVATE` lifts the address and port rules (tests, private
//! mirrors).

use std::{net::SocketAddr, sync::Arc, time::Duration};

use bytes::{Bytes, BytesMut};
use reqwest::{
    Client,
    dns::{Addrs, Name, Resolve, Resolving},
    redirect,
};
use vitrine_shared::outbound::{is_public, is_web_port};

pub use crate::error::FetchError;

/// Resolves with the system resolver and keeps only public addresses.
struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0))
                .await?
                .filter(|a| is_public(a.ip()))
                .collect();
            if found.is_empty() {
                return Err(Box::new(FetchError::Refused) as _);
            }
            Ok(Box::new(found.into_iter()) as Addrs)
        })
    }
}

/// An HTTP client with the outbound rules applied.
#[derive(Clone, Debug)]
pub struct Fetcher {
    client: Client,
    allow_private: bool,
    max_bytes: usize,
}

/// What the rules say of `url` before anything is resolved: its scheme, its port, and its
/// host when that is an IP literal.
fn check_url(url: &reqwest::Url, allow_private: bool) -> Result<(), FetchError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(FetchError::Scheme);
    }
    if allow_private {
        return Ok(());
    }
    let public = match url.host() {
        Some(url::Host::Ipv4(ip)) => is_public(ip.into()),
        Some(url::Host::Ipv6(ip)) => is_public(ip.into()),
        _ => true,
    };
    if !public {
        return Err(FetchError::Refused);
    }
    if !url.port_or_known_default().is_some_and(is_web_port) {
        return Err(FetchError::Port);
    }
    Ok(())
}

impl Fetcher {
    pub fn new(allow_private: bool, max_bytes: usize) -> Fetcher {
        let policy = redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() >= 3 {
                attempt.error("too many redirects")
            } else if let Err(e) = check_url(attempt.url(), allow_private) {
                attempt.error(e)
            } else {
                attempt.follow()
            }
        });
        let mut builder = Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(20))
            .redirect(policy)
            .no_proxy()
            .user_agent(concat!("vitrine/", env!("CARGO_PKG_VERSION")));
        if !allow_private {
            builder = builder.dns_resolver(Arc::new(PublicOnly));
        }
        Fetcher {
            client: builder.build().expect("the HTTP client builds"),
            allow_private,
            max_bytes,
        }
    }

    /// GETs `url` and returns its body, refusing anything the rules forbid.
    pub async fn get(&self, url: &str) -> Result<Bytes, FetchError> {
        let parsed = reqwest::Url::parse(url).map_err(|e| FetchError::Http(e.to_string()))?;
        check_url(&parsed, self.allow_private)?;
        let mut res = self.client.get(parsed).send().await.map_err(describe)?;
        if !res.status().is_success() {
            return Err(FetchError::Status(res.status()));
        }
        if res.content_length().unwrap_or(0) > self.max_bytes as u64 {
            return Err(FetchError::TooLarge(self.max_bytes));
        }
        let mut body = BytesMut::new();
        while let Some(chunk) = res.chunk().await.map_err(describe)? {
            if body.len() + chunk.len() > self.max_bytes {
                return Err(FetchError::TooLarge(self.max_bytes));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body.freeze())
    }
}

/// reqwest's errors wrap the cause; a refusal from the guard is reported as such.
fn describe(e: reqwest::Error) -> FetchError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&e);
    while let Some(s) = source {
        match s.downcast_ref::<FetchError>() {
            Some(FetchError::Refused) => return FetchError::Refused,
            Some(FetchError::Port) => return FetchError::Port,
            Some(FetchError::Scheme) => return FetchError::Scheme,
            _ => {}
        }
        source = s.source();
    }
    if e.is_timeout() {
        return FetchError::Http("timed out".into());
    }
    FetchError::Http(e.without_url().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn private_addresses_and_other_schemes_are_refused() {
        // This test's process has no server, so no `TestDb` installed the TLS provider.
        vitrine_shared::tls::install_crypto_provider();
        let f = Fetcher::new(false, 1024);
        for url in [
            "http://127.0.0.1:9/x",
            "http://[::1]:9/x",
            "http://169.254.169.254/latest/meta-data",
            // A name is judged by the addresses it resolves to (a port other than 80 or 443
            // would be refused before that).
            "http://localhost/x",
        ] {
            assert!(
                matches!(f.get(url).await, Err(FetchError::Refused)),
                "{url}"
            );
        }
        assert!(matches!(
            f.get("file:///etc/passwd").await,
            Err(FetchError::Scheme)
        ));
        for url in [
            "http://1.1.1.1:6379/",
            "https://example.com:8443/",
            "http://example.com:25/",
        ] {
            assert!(matches!(f.get(url).await, Err(FetchError::Port)), "{url}");
        }
        for url in [
            "http://[64:ff9b::7f00:1]/",
            "http://[64:ff9b:1::808:808]/",
            "http://[2002:a00:1::1]/",
        ] {
            assert!(
                matches!(f.get(url).await, Err(FetchError::Refused)),
                "{url}"
            );
        }
    }
}
