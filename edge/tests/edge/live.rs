//! Collection pages, pages with database-fed lists and the read API, from live records.

use std::time::Duration;

use serde_json::{Value, json};
use vitrine_shared::ids::{CollectionId, ProjectId};
use vitrine_shared::{dual_test, sections::MenuItem, testing::TestDb};

use crate::support::{Site, TestEdge, basic, live_page};

const POST: &str = "<article><h1>{{ post.name }}</h1><time>{{ post.date }}</time>{{ post.fields.corpo }}<a href=\"{{ post.permalink }}\">link</a></article>";

dual_test! {
    async fn collection_pages_render_the_live_post_and_follow_edits_without_a_republish(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let table = t
            .collection(loja, "posts", &[("ola", "Olá <mundo>", "<p>Primeiro texto</p>")])
            .await;
        let mut site: Site = basic("<h1>Início</h1>");
        site.collection_pages.insert("blog".into(), live_page("blog", Some(table), POST));
        site.collection_pages.insert(
            "quebrado".into(),
            live_page("quebrado", Some(table), "{{ post.name | no_such_filter }}"),
        );
        site.collection_pages.insert(
            "lento".into(),
            live_page("lento", Some(table), "{% for a in range(1000) %}{% for b in range(1000) %}x{% endfor %}{% endfor %}"),
        );
        t.publish(loja, site).await;
        let host = "loja.localhost";

        let r = t.get(host, "/blog/ola").send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["cache-control"], "public, max-age=0, must-revalidate");
        let tag = r.headers()["etag"].to_str().unwrap().to_string();
        let body = r.text().await.unwrap();
        assert!(body.contains("<title>Olá &lt;mundo&gt; | Loja</title>"), "{body}");
        assert!(body.contains("<h1>Olá &lt;mundo&gt;</h1>"), "{body}");
        assert!(body.contains("<p>Primeiro texto</p>"), "rich text is not escaped: {body}");
        assert!(body.contains("href=\"&#x2f;blog&#x2f;ola\""), "{body}");
        let r = t.get(host, "/blog/ola/").header("if-none-match", &tag).send().await.unwrap();
        assert_eq!(r.status(), 304);

        // The record changes in the database; the page follows within a second.
        let post = t.db.store.query_posts(CollectionId(table), None, &[], 10, 0, vitrine_shared::store::LIST_QUERY_TIMEOUT).await.unwrap().remove(0);
        let mut data = post.data.0.clone();
        let key = data.keys().next().unwrap().clone();
        data.insert(key, Value::String("<p>Texto revisto</p>".into()));
        t.db.store.update_post(post.id, "Olá de novo", "ola", &data).await.unwrap();
        let took = t.until(host, "/blog/ola", 200, "Texto revisto", Duration::from_secs(1)).await;
        assert!(took < Duration::from_secs(1));
        let (_, body) = t.text(host, "/blog/ola").await;
        assert!(body.contains("<h1>Olá de novo</h1>"), "{body}");

        // Unknown posts and pages get the site's 404; failing templates the site's 500.
        let (status, body) = t.text(host, "/blog/nao-existe").await;
        assert_eq!((status, body.as_str()), (404, "<h1>Página perdida da Loja</h1>"));
        let (status, body) = t.text(host, "/outro/ola").await;
        assert_eq!((status, body.as_str()), (404, "<h1>Página perdida da Loja</h1>"));
        for path in ["/quebrado/ola", "/lento/ola"] {
            let (status, body) = t.text(host, path).await;
            assert_eq!((status, body.as_str()), (500, "<h1>A Loja tropeçou</h1>"), "{path}");
        }
        let metrics = reqwest::get(format!("http://{}/metrics", t.edge.admin_addr))
            .await.unwrap().text().await.unwrap();
        assert!(metrics.contains("vitrine_edge_render_errors_total 2"), "{metrics}");
        assert!(metrics.contains("vitrine_edge_cache_hits_total{cache=\"render\"}"), "{metrics}");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_collection_page_shows_the_shared_header_with_the_published_site_menu(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let table = t.collection(loja, "posts", &[("ola", "Olá", "<p>Texto</p>")]).await;
        let mut site: Site = basic("<h1>Início</h1>");
        // As publishing writes it: the shared header first, then the page's own blocks.
        let mut page = live_page("blog", Some(table), POST);
        let mut header = page.blocks[0].clone();
        header.uid = "global-header".into();
        header.template = "<nav>{% for m in site.menu %}<a href=\"{{ m.url }}\">{{ m.name }}</a>{% endfor %}</nav>".into();
        page.blocks.insert(0, header);
        site.collection_pages.insert("blog".into(), page);
        site.menu = vec![
            MenuItem { name: "Início".into(), url: "/".into() },
            MenuItem { name: "Encomendas".into(), url: "/encomendas".into() },
        ];
        t.publish(loja, site).await;
        let (status, body) = t.text("loja.localhost", "/blog/ola").await;
        assert_eq!(status, 200);
        assert!(
            body.contains("<nav><a href=\"&#x2f;\">Início</a><a href=\"&#x2f;encomendas\">Encomendas</a></nav>\n<article><h1>Olá</h1>"),
            "{body}"
        );
        t.edge.stop().await;
    }
}

dual_test! {
    async fn sites_without_their_own_error_pages_get_the_default_ones(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let table = t.collection(loja, "posts", &[("ola", "Olá", "")]).await;
        let mut site = Site::default();
        site.collection_pages.insert("blog".into(), live_page("blog", Some(table), "{% if %}"));
        t.publish(loja, site).await;
        let (status, body) = t.text("loja.localhost", "/blog/ola").await;
        assert_eq!(status, 500);
        assert!(body.contains("Erro no site"), "{body}");
        let (status, body) = t.text("loja.localhost", "/nada").await;
        assert_eq!(status, 404);
        assert!(body.contains("Página não encontrada"), "{body}");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn pages_with_database_fed_lists_show_new_records(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let table = t.collection(loja, "posts", &[("a", "Primeiro", ""), ("b", "Segundo", "")]).await;
        let mut home = live_page("/", None, "<ul>{% for p in recentes %}<li><a href=\"{{ p.permalink }}\">{{ p.name }}</a></li>{% endfor %}</ul>");
        home.blocks[0].vars = vec![json!({"name": "recentes", "source": "db:posts", "dborderfield": "name", "dborderdir": "asc", "dblimit": 10})];
        let mut site = basic("unused");
        site.files.retain(|f| f.path != "/");
        site.dynamic_pages.insert("/".into(), home);
        site.collection_pages.insert("blog".into(), live_page("blog", Some(table), POST));
        t.publish(loja, site).await;

        let (status, body) = t.text("loja.localhost", "/").await;
        assert_eq!(status, 200);
        assert!(body.contains("<li><a href=\"&#x2f;blog&#x2f;a\">Primeiro</a></li><li><a href=\"&#x2f;blog&#x2f;b\">Segundo</a></li>"), "{body}");
        t.collection_post(table, "c", "Terceiro").await;
        t.until("loja.localhost", "/", 200, "Terceiro", Duration::from_secs(1)).await;
        t.edge.stop().await;
    }
}

dual_test! {
    async fn the_read_api_lists_published_collections_with_filter_order_and_paging(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let table = t
            .collection(loja, "posts", &[("a", "Abacate", "x"), ("b", "Banana", "y"), ("c", "Caju", "z")])
            .await;
        let hidden = t.collection(loja, "segredos", &[("s", "Senha", "")]).await;
        let mut site = basic("<h1>Início</h1>");
        site.collections.insert("posts".into(), CollectionId(table));
        t.publish(loja, site).await;
        let _ = hidden;
        let host = "loja.localhost";

        let tr = &t;
        let get = |path: &'static str| async move {
            let r = tr.get(host, path).send().await.unwrap();
            let status = r.status().as_u16();
            assert_eq!(r.headers()["content-type"], "application/json", "{path}");
            (status, r.json::<Value>().await.unwrap())
        };
        let (status, v) = get("/_api/collections/posts?order_field=name&order_dir=asc").await;
        assert_eq!(status, 200);
        let names: Vec<&str> = v.as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["Abacate", "Banana", "Caju"]);
        assert_eq!(v[0]["fields"]["corpo"], "x");
        let (_, v) = get("/_api/collections/posts?order_field=name&order_dir=desc&limit=1&offset=1").await;
        assert_eq!(v.as_array().unwrap().len(), 1);
        assert_eq!(v[0]["name"], "Banana");
        let (_, v) = get("/_api/collections/posts?filter_field=slug&filter_value=c").await;
        assert_eq!(v[0]["name"], "Caju");

        for (path, status, message) in [
            ("/_api/collections/posts?limit=101", 400, "limit is between 1 and 100"),
            ("/_api/collections/posts?limit=dez", 400, "limit must be a whole number"),
            ("/_api/collections/posts?filter_field=cor&filter_value=azul", 400, "Unknown filter field \"cor\""),
            ("/_api/collections/posts?order_field=preco", 400, "Unknown order field \"preco\""),
            ("/_api/collections/segredos", 404, "Unknown collection"),
            ("/_api/collections/nada", 404, "Unknown collection"),
        ] {
            let (s, v) = get(path).await;
            assert_eq!(s, status, "{path}");
            assert_eq!(v["message"], message, "{path}");
            assert!(v["error"].is_string(), "{path}");
        }
        t.collection_post(table, "d", "Damasco").await;
        t.until(host, "/_api/collections/posts?filter_field=slug&filter_value=d", 200, "Damasco", Duration::from_secs(1)).await;
        t.edge.stop().await;
    }
}

impl TestEdge {
    async fn collection_post(&self, table: i64, slug: &str, name: &str) {
        self.db
            .store
            .insert_post(
                CollectionId(table),
                &vitrine_shared::store::NewPost {
                    name: name.into(),
                    slug: slug.into(),
                    data: serde_json::Map::new(),
                    created_at: vitrine_shared::store::now(),
                },
                u64::MAX,
            )
            .await
            .unwrap();
    }
}

/// The seeded "Grade de produtos" block as the editor inserts it: its `x-vars` moved into
/// `vars`, its list reading `table`, its "see all" link pointing at `more`.
pub(crate) fn seeded_product_grid(table: &str, more: &str) -> vitrine_shared::render::Block {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../control-plane/seed/blocks/09-collection-list/02-grade-de-produtos.toml"
    );
    let file: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    let (template, mut vars) =
        vitrine_shared::blocks::split_x_vars(file["template"].as_str().unwrap()).unwrap();
    for v in &mut vars {
        match v["name"].as_str() {
            Some("products") => v["source"] = json!(format!("db:{table}")),
            Some("more") => v["value"]["href"] = json!(more),
            _ => {}
        }
    }
    vitrine_shared::render::Block {
        uid: "grade".into(),
        template,
        css: file["css"].as_str().unwrap().into(),
        vars,
        ..Default::default()
    }
}

dual_test! {
    async fn a_published_product_grid_shows_formatted_prices_and_links_each_item_to_its_page(db: TestDb) {
        let t = TestEdge::start(db).await;
        let padaria = t.project("padaria").await;
        let store = &t.db.store;
        let c = store.insert_collection(ProjectId(padaria), "produtos", "produtos", &json!({})).await.unwrap();
        let price = store
            .insert_field(c.id, &vitrine_shared::store::FieldInput {
                name: "Preço".into(),
                slug: "price".into(),
                kind: "currency".into(),
                required: false,
                options: json!([]),
                meta: json!({"symbol": "R$", "format": "(symbol) 9.999,99"}),
            })
            .await
            .unwrap();
        let mut data = serde_json::Map::new();
        data.insert(price.id.to_string(), json!(4200));
        store
            .insert_post(c.id, &vitrine_shared::store::NewPost {
                name: "Pão de queijo".into(),
                slug: "pao-de-queijo".into(),
                data,
                created_at: vitrine_shared::store::now(),
            }, u64::MAX)
            .await
            .unwrap();

        let mut home = live_page("/", None, "");
        // "Ver catálogo completo" points at /produtos, a page the site does not have.
        home.blocks = vec![seeded_product_grid("produtos", "/produtos")];
        let mut cardapio = live_page("cardapio", None, "");
        cardapio.blocks = vec![seeded_product_grid("produtos", "/sobre")];
        let mut site = basic("unused");
        site.files.retain(|f| f.path != "/");
        site.dynamic_pages.insert("/".into(), home);
        site.dynamic_pages.insert("cardapio".into(), cardapio);
        site.collection_pages.insert(
            "produto".into(),
            live_page("produto", Some(c.id.get()), "<h1>{{ post.name }}</h1><p>{{ post.fields.price }} ({{ post.raw.price }})</p>"),
        );
        site.collections.insert("produtos".into(), c.id);
        t.publish(padaria, site).await;
        let host = "padaria.localhost";

        let (status, body) = t.text(host, "/").await;
        assert_eq!(status, 200);
        assert!(body.contains("<p class=\"vt-pd-price\">R$ 42,00</p>"), "{body}");
        assert!(!body.contains("4200"), "raw cents leak: {body}");
        assert!(body.contains("class=\"vt-pd-btn\" href=\"&#x2f;produto&#x2f;pao-de-queijo\""), "{body}");
        assert!(!body.contains("href=\"#\""), "{body}");
        assert!(!body.contains("Ver catálogo completo"), "a see-all link to a missing page: {body}");
        assert!(body.contains("body{margin:0}"), "the reset stylesheet: {body}");

        // The item's url is the post's page, and it answers.
        let (status, body) = t.text(host, "/produto/pao-de-queijo").await;
        assert_eq!(status, 200);
        assert!(body.contains("<p>R$ 42,00 (4200)</p>"), "{body}");

        // A see-all link to a page that exists is shown.
        let (status, body) = t.text(host, "/cardapio").await;
        assert_eq!(status, 200);
        assert!(body.contains("href=\"&#x2f;sobre\" target=\"_self\">Ver catálogo completo"), "{body}");

        // The read API gives the raw value, the formatted one and the post's page.
        let v: Value = t.get(host, "/_api/collections/produtos").send().await.unwrap().json().await.unwrap();
        assert_eq!(v[0]["fields"]["price"], 4200);
        assert_eq!(v[0]["formatted"]["price"], "R$ 42,00");
        assert_eq!(v[0]["url"], "/produto/pao-de-queijo");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn photos_named_by_live_records_become_pictures_and_other_tenants_files_do_not(db: TestDb) {
        use vitrine_shared::photos::{Photo, PhotoFormat, Variant, variant_key};
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let outra = t.project("outra").await;
        let digest = "0123456789abcdef0123";
        let ours = format!("uploads/{}/{loja}/{digest}/pao.jpg", t.user_id);
        let theirs = format!("uploads/{}/{outra}/{digest}/bolo.jpg", t.user_id);
        let corpo = format!(
            "<img src=\"/files/{ours}\" alt=\"pão\"><p>texto</p><img src=\"/files/{ours}\" alt=\"de novo\"><img src=\"/files/{theirs}\" alt=\"outro\">"
        );
        let table = t.collection(loja, "produtos", &[("pao", "Pão", corpo.as_str())]).await;
        for key in [&ours, &theirs] {
            let mut variants = Vec::new();
            for format in [PhotoFormat::Avif, PhotoFormat::Webp, PhotoFormat::Jpeg] {
                for (width, height) in [(320, 240), (640, 480)] {
                    let vkey = variant_key(key, width, format);
                    t.blobs.put(&vkey, bytes::Bytes::from_static(b"variant")).await.unwrap();
                    variants.push(Variant { format, width, height, key: vkey, bytes: 7 });
                }
            }
            let photo = Photo { width: 640, height: 480, placeholder: "data:image/webp;base64,AA".into(), variants };
            t.db.store.save_photo(key, &photo, false).await.unwrap();
        }
        let mut home = live_page("/", None, "<ul>{% for p in lista %}<li>{{ p.fields.corpo }}</li>{% endfor %}</ul>");
        home.blocks[0].vars = vec![json!({"name": "lista", "source": "db:produtos", "dblimit": 10})];
        let mut site = basic("unused");
        site.files.retain(|f| f.path != "/");
        site.dynamic_pages.insert("/".into(), home);
        site.collection_pages.insert("produto".into(), live_page("produto", Some(table), POST));
        t.publish(loja, site).await;
        let host = "loja.localhost";
        for path in ["/", "/produto/pao"] {
            let (status, body) = t.text(host, path).await;
            assert_eq!(status, 200, "{path}");
            // Ours, twice: the first loads first, the second lazily; theirs stays an <img>.
            assert_eq!(body.matches("<picture>").count(), 2, "{path}: {body}");
            let avif = format!(
                "<source type=\"image/avif\" srcset=\"/files/{} 320w, /files/{} 640w\" sizes=\"(max-width: 640px) 100vw, 640px\">",
                variant_key(&ours, 320, PhotoFormat::Avif),
                variant_key(&ours, 640, PhotoFormat::Avif)
            );
            assert!(body.contains(&avif), "{path}: {body}");
            assert!(body.contains("image/webp"), "{path}: {body}");
            assert!(body.contains("width=\"640\" height=\"480\""), "{path}: {body}");
            assert_eq!(body.matches("fetchpriority=\"high\"").count(), 1, "{path}: {body}");
            assert_eq!(body.matches("loading=\"lazy\"").count(), 1, "{path}: {body}");
            assert!(body.contains(&format!("<img src=\"/files/{theirs}\" alt=\"outro\">")), "{path}: {body}");
            assert!(!body.contains(&variant_key(&theirs, 320, PhotoFormat::Avif)), "{path}: {body}");
        }
        // The variants are served on the site's host; another project's are not.
        let r = t.get(host, &format!("/files/{}", variant_key(&ours, 640, PhotoFormat::Webp))).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let r = t.get(host, &format!("/files/{}", variant_key(&theirs, 640, PhotoFormat::Webp))).send().await.unwrap();
        assert_eq!(r.status(), 404);
        t.edge.stop().await;
    }
}
