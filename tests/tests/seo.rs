//! A published site as search engines and link previews read it (issue 44), over real
//! sockets on both databases: an owner builds a site through the control plane's API and
//! publishes it; the edge answers `/robots.txt`, `/sitemap.xml` (live: a record edited after
//! the publish shows its new `lastmod` with no re-publish), `/favicon.ico`, the site's own 404
//! page (its header and theme), and pages whose heads carry the canonical URL, Open Graph and
//! Twitter tags and JSON-LD that a schema.org checker accepts. Verifying a custom domain moves
//! the canonical addresses to it and makes the preview address `noindex`.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use vitrine_shared::ids::ProjectId;

mod seo_stack;
use seo_stack::{Stack, json_ld, lastmod};

const EVIL: &str = "Bolo </script><script>alert(1)</script>";

vitrine_shared::dual_test!(
    async fn a_published_site_answers_search_engines_and_link_previews(s: Stack) {
        let project = s
            .post("/api/projects", json!({"name": "Padaria Central"}))
            .await;
        let id = project["id"].as_i64().unwrap();
        let slug = project["slug"].as_str().unwrap().to_string();
        let host = format!("{slug}.localhost");
        let base = format!("https://{slug}.vitrine.test");
        let home = project["pages"][0]["id"].as_i64().unwrap();
        let (status, _) = s
            .send(
                reqwest::Method::PUT,
                &format!("/api/projects/{id}/identity"),
                json!({
            "name": "Padaria Central", "phone": "+55 11 3333-4444",
            "address": "Rua das Flores, 120 - São Paulo", "hours": "Seg a Sáb, 7h às 19h",
            "social": {"instagram": "https://instagram.com/padaria"}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = s
            .send(
                reqwest::Method::PUT,
                &format!("/api/projects/{id}/theme"),
                json!({"primary": "#1d4ed8"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        s.post(
            &format!("/api/project/{id}/sections/header"),
            json!({"block": {"uid": "h",
            "name": "Cabeçalho", "template": "<header class=\"topo\">Cabeçalho da Padaria</header>",
            "css": ".topo{padding:1rem}", "js": "", "vars": []}}),
        )
        .await;
        s.post(
            &format!("/api/page/{home}"),
            json!({"blocks": [{"uid": "hero", "name": "Hero",
            "template": "<h1>Pão quentinho</h1>", "css": "", "js": ""}]}),
        )
        .await;
        let sobre = s
            .post("/api/pages", json!({"project_id": id, "name": "Sobre"}))
            .await["id"]
            .as_i64()
            .unwrap();
        s.post(&format!("/api/page/{sobre}"), json!({"slug": "sobre", "description": "Quem somos",
            "blocks": [{"uid": "s", "name": "Sobre", "template": "<p>Desde 1990</p>", "css": "", "js": ""}]})).await;
        let (table, price) = s.products(id).await;
        let stock = s
            .post(
                "/api/fields",
                json!({"table_id": table, "name": "Estoque", "type": "checkbox"}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        let about = s
            .post(
                "/api/fields",
                json!({"table_id": table, "name": "Descrição", "type": "wysiwyg"}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        let post = s
            .post(
                "/api/posts",
                json!({"table_id": table, "name": EVIL, "slug": "bolo",
            "fields": [{"field_id": price, "value": 1250}, {"field_id": stock, "value": true},
                {"field_id": about, "value": "<p>Bolo <b>fofinho</b> de cenoura,</p><p>feito no dia.</p>"}]}),
            )
            .await;
        let post_id = post["id"]
            .as_i64()
            .or_else(|| post["post"]["id"].as_i64())
            .expect("post id");
        let menu = s
            .post("/api/pages", json!({"project_id": id, "name": "Cardápio"}))
            .await["id"]
            .as_i64()
            .unwrap();
        s.post(&format!("/api/page/{menu}"), json!({"slug": "cardapio", "blocks": [{"uid": "l", "name": "Lista",
            "template": "{% for p in itens %}<a href=\"{{ p.permalink }}\">{{ p.name }}</a>{% endfor %}",
            "css": "", "js": "", "vars": [{"name": "itens", "type": "list", "source": "db:produtos"}]}]})).await;
        let item_page = s
            .post("/api/pages", json!({"project_id": id, "name": "Produto"}))
            .await["id"]
            .as_i64()
            .unwrap();
        s.post(&format!("/api/page/{item_page}"), json!({"slug": "produtos", "table_id": table,
            "blocks": [{"uid": "p", "name": "Produto", "template": "<h1>{{ post.name }}</h1>", "css": "", "js": ""}]})).await;
        s.publish(id).await;
        s.until(&host, "/", |st, b| st == 200 && b.contains("Pão quentinho"))
            .await;

        // robots.txt: the default lets crawlers in and names the absolute sitemap.
        let (status, robots, headers) = s.visit(&host, "/robots.txt").await;
        assert_eq!(status, 200);
        assert!(
            headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/plain")
        );
        assert_eq!(
            robots,
            format!("User-agent: *\nAllow: /\n\nSitemap: {base}/sitemap.xml\n")
        );
        assert!(headers.get("x-robots-tag").is_none());

        // sitemap.xml: every page and the item, pages dated by the deploy, the item by its edit.
        let (status, sitemap, headers) = s.visit(&host, "/sitemap.xml").await;
        assert_eq!(status, 200, "{sitemap}");
        assert_eq!(headers["content-type"], "application/xml; charset=utf-8");
        for path in ["/", "/sobre", "/cardapio", "/produtos/bolo"] {
            assert!(
                lastmod(&sitemap, &format!("{base}{path}")).is_some(),
                "{path}: {sitemap}"
            );
        }
        for hidden in ["/favicon.ico", "/produtos/*", "/404"] {
            assert!(
                !sitemap.contains(&format!("{base}{hidden}<")),
                "{hidden}: {sitemap}"
            );
        }
        let store = &s.db.store;
        let stored = store
            .post_by_id(vitrine_shared::ids::PostId(post_id))
            .await
            .unwrap();
        let first = lastmod(&sitemap, &format!("{base}/produtos/bolo"))
            .unwrap()
            .to_string();
        assert_eq!(
            first,
            stored.updated_at.format("%Y-%m-%dT%H:%M:%SZ").to_string()
        );
        // A record edited after the publish: the sitemap follows, no re-publish.
        tokio::time::sleep(Duration::from_millis(1100)).await;
        s.post(
            &format!("/api/posts/{post_id}"),
            json!({"table_id": table, "name": EVIL, "slug": "bolo",
            "fields": [{"field_id": price, "value": 1390}, {"field_id": stock, "value": false}]}),
        )
        .await;
        let edited = s
            .until(&host, "/sitemap.xml", |st, b| {
                st == 200
                    && lastmod(b, &format!("{base}/produtos/bolo")).is_some_and(|l| l != first)
            })
            .await;
        assert!(lastmod(&edited, &format!("{base}/produtos/bolo")).unwrap() > first.as_str());

        // The favicon: a letter mark in the theme's colours, linked by every page.
        let (status, icon, headers) = s.visit(&host, "/favicon.ico").await;
        assert_eq!(status, 200);
        assert_eq!(headers["content-type"], "image/svg+xml");
        assert!(
            icon.contains(">P</text>") && icon.contains("#1d4ed8"),
            "{icon}"
        );

        // The home page's head: canonical, Open Graph, Twitter, JSON-LD.
        let (_, html, _) = s.visit(&host, "/").await;
        for needle in [
            format!("<link rel=\"canonical\" href=\"{base}/\">"),
            format!("<meta property=\"og:url\" content=\"{base}/\">"),
            "<meta property=\"og:locale\" content=\"pt_BR\">".into(),
            "<meta property=\"og:type\" content=\"website\">".into(),
            "<meta property=\"og:title\" content=\"Padaria Central\">".into(),
            "<meta name=\"twitter:card\" content=\"summary_large_image\">".into(),
            "<meta property=\"og:image:width\" content=\"1200\">".into(),
            "<meta name=\"twitter:title\" content=\"Padaria Central\">".into(),
            "type=\"image/svg+xml\">".into(),
        ] {
            assert!(html.contains(&needle), "missing {needle} in {html}");
        }
        let data = json_ld(&html);
        assert_eq!(data.len(), 1, "{data:?}");
        let business = &data[0].1;
        assert_eq!(data[0].0, "LocalBusiness");
        assert_eq!(business["telephone"], "+55 11 3333-4444");
        assert_eq!(business["openingHours"], "Seg a Sáb, 7h às 19h");
        assert_eq!(business["sameAs"], json!(["https://instagram.com/padaria"]));
        assert_eq!(business["url"], format!("{base}/"));
        let (_, html, _) = s.visit(&host, "/sobre").await;
        assert!(
            html.contains("<meta name=\"twitter:description\" content=\"Quem somos\">"),
            "{html}"
        );
        let types: Vec<String> = json_ld(&html).into_iter().map(|(t, _)| t).collect();
        assert_eq!(types, ["LocalBusiness", "BreadcrumbList"]);

        // The item: its canonical, Product with its offer, the trail through the listing, and
        // the record's hostile name kept inside its script elements.
        let html = s
            .until(&host, "/produtos/bolo", |st, b| {
                st == 200 && b.contains("13.90")
            })
            .await;
        assert!(
            html.contains(&format!(
                "<link rel=\"canonical\" href=\"{base}/produtos/bolo\">"
            )),
            "{html}"
        );
        assert!(
            html.contains("<meta property=\"og:type\" content=\"product\">"),
            "{html}"
        );
        assert!(!html.contains("<script>alert(1)"), "{html}");
        // Its own description, as words, in search results and link previews.
        for tag in [
            "<meta name=\"description\"",
            "<meta property=\"og:description\"",
            "<meta name=\"twitter:description\"",
        ] {
            assert!(
                html.contains(&format!(
                    "{tag} content=\"Bolo fofinho de cenoura, feito no dia.\">"
                )),
                "{tag}: {html}"
            );
        }
        let data = json_ld(&html);
        let product = &data
            .iter()
            .find(|(t, _)| t == "Product")
            .expect("a Product")
            .1;
        assert_eq!(product["name"], EVIL);
        assert_eq!(product["offers"]["price"], "13.90");
        assert_eq!(product["offers"]["priceCurrency"], "BRL");
        assert_eq!(
            product["offers"]["availability"],
            "https://schema.org/OutOfStock"
        );
        let trail = &data
            .iter()
            .find(|(t, _)| t == "BreadcrumbList")
            .expect("a trail")
            .1;
        let names: Vec<&str> = trail["itemListElement"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["Início", "Cardápio", EVIL]);
        assert_eq!(
            trail["itemListElement"][1]["item"],
            format!("{base}/cardapio")
        );

        // The 404 page: the site's header and theme, status 404.
        let (status, html, _) = s.visit(&host, "/nao-existe").await;
        assert_eq!(status, 404);
        for needle in [
            "Cabeçalho da Padaria",
            "Página não encontrada",
            "--vt-primary:#1d4ed8",
            "noindex",
        ] {
            assert!(html.contains(needle), "missing {needle} in {html}");
        }

        // The owner's robots.txt: checked, then published with the sitemap named.
        for (robots, code) in [
            ("User-agent: *\u{1b}[31m", "robots_invalid"),
            (&*"#".repeat(9000), "robots_too_large"),
            ("a\u{0}", "nul_character"),
        ] {
            let (status, body) = s
                .send(
                    reqwest::Method::POST,
                    &format!("/api/projects/{id}"),
                    json!({"meta": {"robots": robots}}),
                )
                .await;
            assert!(status.is_client_error(), "{status} {body}");
            assert_eq!(body["error"].as_str(), Some(code), "{body}");
        }
        let (_, project) = s
            .send(
                reqwest::Method::GET,
                &format!("/api/projects/{id}"),
                json!({}),
            )
            .await;
        assert!(
            project["meta"].get("robots").is_none(),
            "nothing written: {project}"
        );
        s.post(
            &format!("/api/projects/{id}"),
            json!({"meta": {"robots": "User-agent: *\nDisallow: /rascunhos"}}),
        )
        .await;
        s.publish(id).await;
        s.until(&host, "/robots.txt", |st, b| {
            st == 200
                && b == format!(
                    "User-agent: *\nDisallow: /rascunhos\n\nSitemap: {base}/sitemap.xml\n"
                )
        })
        .await;

        // A verified domain: canonical addresses move to it, the preview is noindex.
        store
            .mark_domain_verified(ProjectId(id), "padaria.example")
            .await
            .unwrap();
        let robots = s
            .until(&host, "/robots.txt", |_, b| b.contains("Disallow: /\n"))
            .await;
        assert_eq!(robots, "User-agent: *\nDisallow: /\n");
        for path in [
            "/",
            "/favicon.ico",
            "/favicon.ico",
            "/nao-existe",
            "/sitemap.xml",
        ] {
            let (_, _, headers) = s.visit(&host, path).await;
            assert_eq!(
                headers.get("x-robots-tag").map(|v| v.to_str().unwrap()),
                Some("noindex"),
                "{path}"
            );
        }
        let domain = "padaria.example";
        let (status, robots, headers) = s.visit(domain, "/robots.txt").await;
        assert_eq!(status, 200);
        assert!(
            robots.ends_with("Sitemap: https://padaria.example/sitemap.xml\n"),
            "{robots}"
        );
        assert!(headers.get("x-robots-tag").is_none());
        let (_, sitemap, _) = s.visit(domain, "/sitemap.xml").await;
        assert!(
            sitemap.contains("<loc>https://padaria.example/produtos/bolo</loc>"),
            "{sitemap}"
        );
        let (_, html, _) = s.visit(domain, "/produtos/bolo").await;
        assert!(
            html.contains(
                "<link rel=\"canonical\" href=\"https://padaria.example/produtos/bolo\">"
            ),
            "{html}"
        );
        s.publish(id).await;
        s.until(domain, "/", |_, b| {
            b.contains("<link rel=\"canonical\" href=\"https://padaria.example/\">")
        })
        .await;
    }
);
