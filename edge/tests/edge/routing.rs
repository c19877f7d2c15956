//! Host routing and redirects.

use std::time::Duration;

use vitrine_shared::ids::ProjectId;
use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::{TestEdge, basic};

dual_test! {
    async fn hosts_route_to_their_site_and_strangers_get_the_platform_pages(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.simple_site("loja", "<h1>Bem-vindo à Loja</h1>").await;
        t.project("rascunho").await;

        for host in ["loja.localhost", "LOJA.localhost:8080", "loja.localhost."] {
            let (status, body) = t.text(host, "/").await;
            assert_eq!((status, body.as_str()), (200, "<h1>Bem-vindo à Loja</h1>"), "{host}");
        }
        let (status, body) = t.text("loja.localhost", "/sobre").await;
        assert_eq!((status, body.as_str()), (200, "<h1>Sobre nós</h1>"));

        let (status, body) = t.text("nada.localhost", "/").await;
        assert_eq!(status, 404);
        assert!(body.contains("Site não encontrado"), "{body}");
        let (status, body) = t.text("unknown.example.com", "/").await;
        assert_eq!(status, 404);
        assert!(body.contains("Site não encontrado"), "{body}");

        let (status, body) = t.text("rascunho.localhost", "/").await;
        assert_eq!(status, 404);
        assert!(body.contains("Site não publicado"), "{body}");
        assert!(body.contains("not published"), "{body}");

        // A custom domain serves once verified, under both its names.
        let (status, _) = t.text("loja.com.br", "/").await;
        assert_eq!(status, 404, "an unverified domain serves nothing");
        t.db.store.mark_domain_verified(ProjectId(loja), "loja.com.br").await.unwrap();
        for host in ["loja.com.br", "www.loja.com.br", "WWW.Loja.com.br:443"] {
            t.until(host, "/", 200, "Bem-vindo", Duration::from_secs(1)).await;
        }

        // The site's own 404 for a path it does not have.
        let (status, body) = t.text("loja.localhost", "/nao-existe").await;
        assert_eq!((status, body.as_str()), (404, "<h1>Página perdida da Loja</h1>"));
        t.edge.stop().await;
    }
}

dual_test! {
    async fn redirects_apply_before_pages_and_carry_the_query(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let store = &t.db.store;
        store.insert_redirect(ProjectId(loja), "/sobre", "/quem-somos").await.unwrap();
        store.insert_redirect(ProjectId(loja), "/blog/*", "/noticias/*").await.unwrap();
        store.insert_redirect(ProjectId(loja), "/fora", "https://example.com/x").await.unwrap();
        t.publish(loja, basic("<h1>Início</h1>")).await;

        let cases = [
            ("/sobre", "/quem-somos"),
            ("/sobre/?utm=1&b=2", "/quem-somos?utm=1&b=2"),
            ("/blog/2024/post", "/noticias/2024/post"),
            ("/blog", "/noticias/"),
            ("/fora?a=1", "https://example.com/x?a=1"),
        ];
        for (from, to) in cases {
            let r = t.get("loja.localhost", from).send().await.unwrap();
            assert_eq!(r.status(), 301, "{from}");
            assert_eq!(r.headers()["location"], to, "{from}");
        }
        let (status, _) = t.text("loja.localhost", "/").await;
        assert_eq!(status, 200, "pages without a rule are served");
        t.edge.stop().await;
    }
}
