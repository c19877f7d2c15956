//! An edge with one published site on both visitor listeners, for the protocol suites (HTTP/2
//! conformance, request smuggling): plain HTTP at [`PLAIN_HOST`], HTTPS at [`TLS_HOST`] with a
//! stored self-signed certificate, and raw connections to either. The database is not what
//! these suites test, so the edge runs on SQLite only.

use std::sync::Arc;

use rustls::pki_types::{CertificateDer, ServerName, pem::PemObject};
use tokio::{
    io::{AsyncRead, AsyncWrite},
    net::TcpStream,
};
use tokio_rustls::{TlsConnector, client::TlsStream};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::testing::{Backend, TestDb};

use crate::support::TestEdge;

/// The published home page (the same bytes on both listeners).
pub const HOME: &str = "<h1>Conformidade</h1><p>Uma página publicada, servida pela borda.</p>";
/// The site's preview host, served on the plain listener (it has no certificate, so it is not
/// redirected to HTTPS).
pub const PLAIN_HOST: &str = "loja.localhost";
/// The site's verified domain, served on the TLS listener.
pub const TLS_HOST: &str = "loja.test";

/// A byte stream a suite's client talks over: TCP or TLS.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

pub struct Listeners {
    pub t: TestEdge,
    tls: rustls::ClientConfig,
}

impl Listeners {
    pub async fn start() -> Listeners {
        let t = TestEdge::start(TestDb::new(Backend::Sqlite).await).await;
        let loja = t.simple_site("loja", HOME).await;
        t.db.store
            .mark_domain_verified(ProjectId(loja), TLS_HOST)
            .await
            .unwrap();
        let pem = crate::tls::stored_certificate(&t, loja, TLS_HOST).await;
        let mut roots = rustls::RootCertStore::empty();
        roots
            .add(CertificateDer::from_pem_slice(pem.as_bytes()).unwrap())
            .unwrap();
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
        Listeners { t, tls: config }
    }

    pub async fn plain(&self) -> TcpStream {
        TcpStream::connect(self.t.edge.http_addr).await.unwrap()
    }

    /// A TLS connection to [`TLS_HOST`] offering only `alpn` (`h2` or `http/1.1`); fails the
    /// test unless the edge picks it.
    pub async fn tls(&self, alpn: &[u8]) -> TlsStream<TcpStream> {
        let mut config = self.tls.clone();
        config.alpn_protocols = vec![alpn.to_vec()];
        let tcp = TcpStream::connect(self.t.edge.https_addr).await.unwrap();
        let name = ServerName::try_from(TLS_HOST).unwrap();
        let stream = TlsConnector::from(Arc::new(config))
            .connect(name, tcp)
            .await
            .unwrap();
        assert_eq!(stream.get_ref().1.alpn_protocol(), Some(alpn), "ALPN");
        stream
    }
}
