//! Static pages and assets: validators, HEAD, ranges, encodings, cache policy, old assets,
//! and HTTP/2.

use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::{Site, TestEdge, asset, basic, etag};

const HOME: &str = "<h1>Bem-vindo à Loja</h1><p>0123456789</p>";

dual_test! {
    async fn pages_have_strong_etags_304_head_ranges_and_encodings(db: TestDb) {
        let t = TestEdge::start(db).await;
        t.simple_site("loja", HOME).await;
        let host = "loja.localhost";

        let r = t.get(host, "/").send().await.unwrap();
        assert_eq!(r.status(), 200);
        let tag = r.headers()["etag"].to_str().unwrap().to_string();
        assert_eq!(tag, etag(HOME.as_bytes()));
        assert_eq!(r.headers()["cache-control"], "public, max-age=0, must-revalidate");
        assert_eq!(r.headers()["content-type"], "text/html; charset=utf-8");
        assert_eq!(r.headers()["vary"], "Accept-Encoding");
        assert_eq!(r.headers()["accept-ranges"], "bytes");
        assert_eq!(r.text().await.unwrap(), HOME);

        let r = t.get(host, "/").header("if-none-match", &tag).send().await.unwrap();
        assert_eq!(r.status(), 304);
        assert_eq!(r.headers()["etag"], tag.as_str());
        assert!(r.bytes().await.unwrap().is_empty());
        let r = t.get(host, "/").header("if-none-match", "\"other\"").send().await.unwrap();
        assert_eq!(r.status(), 200);

        let r = t.client.head(t.url("/")).header("host", host).send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-length"], HOME.len().to_string().as_str());
        assert_eq!(r.headers()["etag"], tag.as_str());
        assert!(r.bytes().await.unwrap().is_empty());

        // br first, then gzip, each with its own validator; identity when neither is accepted.
        let r = t.get(host, "/").header("accept-encoding", "gzip, br").send().await.unwrap();
        assert_eq!(r.headers()["content-encoding"], "br");
        assert_ne!(r.headers()["etag"], tag.as_str());
        assert_eq!(r.text().await.unwrap(), format!("BR:{}", HOME.len()));
        let r = t.get(host, "/").header("accept-encoding", "gzip;q=0.8, br;q=0").send().await.unwrap();
        assert_eq!(r.headers()["content-encoding"], "gzip");
        assert_eq!(r.text().await.unwrap(), format!("GZ:{}", HOME.len()));
        let r = t.get(host, "/").header("accept-encoding", "identity").send().await.unwrap();
        assert!(r.headers().get("content-encoding").is_none());

        // One range, cut from the identity body even when br is accepted.
        let r = t.get(host, "/").header("range", "bytes=0-3").header("accept-encoding", "br").send().await.unwrap();
        assert_eq!(r.status(), 206);
        assert_eq!(r.headers()["content-range"], format!("bytes 0-3/{}", HOME.len()).as_str());
        assert!(r.headers().get("content-encoding").is_none());
        assert_eq!(r.text().await.unwrap(), &HOME[..4]);
        let r = t.get(host, "/").header("range", "bytes=-10").send().await.unwrap();
        assert_eq!(r.status(), 206);
        assert_eq!(r.text().await.unwrap(), &HOME[HOME.len() - 10..]);
        let r = t.get(host, "/").header("range", "bytes=9999-").send().await.unwrap();
        assert_eq!(r.status(), 416);
        assert_eq!(r.headers()["content-range"], format!("bytes */{}", HOME.len()).as_str());
        let r = t.get(host, "/").header("range", "bytes=0-1").header("if-range", "\"old\"").send().await.unwrap();
        assert_eq!(r.status(), 200, "If-Range with another tag gets the whole page");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn assets_are_immutable_and_survive_the_next_deploy(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let mut first: Site = basic("<h1>v1</h1><script src=\"/_assets/aaaa1111.js\"></script>");
        first.files.push(asset("aaaa1111.js", "text/javascript", "console.log('v1')"));
        t.publish(loja, first).await;
        let host = "loja.localhost";

        let r = t.get(host, "/_assets/aaaa1111.js").send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["cache-control"], "public, max-age=31536000, immutable");
        assert_eq!(r.headers()["content-type"], "text/javascript");
        assert_eq!(r.text().await.unwrap(), "console.log('v1')");

        let mut second: Site = basic("<h1>v2</h1><script src=\"/_assets/bbbb2222.js\"></script>");
        second.files.push(asset("bbbb2222.js", "text/javascript", "console.log('v2')"));
        t.publish(loja, second).await;
        t.until(host, "/", 200, "v2", std::time::Duration::from_secs(1)).await;

        // A visitor still holding the v1 page finds its script.
        let r = t.get(host, "/_assets/aaaa1111.js").send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["cache-control"], "public, max-age=31536000, immutable");
        assert_eq!(r.headers()["etag"], "\"aaaa1111\"");
        assert_eq!(r.headers()["content-type"], "text/javascript");
        assert_eq!(r.text().await.unwrap(), "console.log('v1')");
        let (status, _) = t.text(host, "/_assets/bbbb2222.js").await;
        assert_eq!(status, 200);

        // Another project's asset and made-up names are the site's 404, never a leak.
        let other = t.project("outra").await;
        let mut o: Site = basic("<h1>outra</h1>");
        o.files.push(asset("cccc3333.css", "text/css", "body{}"));
        t.publish(other, o).await;
        for path in ["/_assets/cccc3333.css", "/_assets/nada.js", "/_assets/.hidden", "/_assets/a%2Fb"] {
            let (status, body) = t.text(host, path).await;
            assert_eq!(status, 404, "{path}");
            assert!(body.contains("Página perdida"), "{path}: {body}");
        }
        t.edge.stop().await;
    }
}

dual_test! {
    async fn http2_prior_knowledge_requests_are_served(db: TestDb) {
        let t = TestEdge::start(db).await;
        t.simple_site("loja", HOME).await;
        let client = reqwest::Client::builder()
            .http2_prior_knowledge()
            .resolve("loja.localhost", t.edge.http_addr)
            .build()
            .unwrap();
        let r = client
            .get(format!("http://loja.localhost:{}/sobre", t.edge.http_addr.port()))
            .send()
            .await
            .unwrap();
        assert_eq!(r.version(), reqwest::Version::HTTP_2);
        assert_eq!(r.status(), 200);
        assert_eq!(r.text().await.unwrap(), "<h1>Sobre nós</h1>");
        t.edge.stop().await;
    }
}
