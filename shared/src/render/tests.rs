//! The renderer's tests: blocks, variables, lists, links, budgets and the document.

use super::*;
use crate::ids::PostId;
use crate::record_lists::DbRecord;
use chrono::TimeZone;
use serde_json::json;

fn post(fields: Json) -> PostView {
    PostView {
        record: DbRecord {
            id: PostId(7),
            name: "Moqueca <capixaba>".into(),
            slug: "moqueca".into(),
            created_at: chrono::Utc.with_ymd_and_hms(2026, 3, 4, 10, 0, 0).unwrap(),
            formatted: crate::values::formatted_fields(
                [(
                    "preco",
                    "currency",
                    &json!({"symbol": "R$", "format": "(symbol) 9.999,99"}),
                )],
                fields.as_object().unwrap(),
            ),
            url: None,
            fields: fields.as_object().unwrap().clone(),
        },
        permalink: "/blog/moqueca".into(),
        html_fields: vec!["corpo".into()],
    }
}

fn render(template: &str, ctx: &RenderContext) -> Result<String, RenderError> {
    let blocks = vec![Block {
        uid: "b1".into(),
        template: template.into(),
        ..Block::default()
    }];
    CompiledPage::compile(&blocks)?.render(ctx)
}

#[test]
fn bindings_escape_text_and_keep_sanitised_rich_text() {
    let ctx = RenderContext {
        post: Some(post(json!({"corpo": "<p>ok</p>", "resumo": "<b>x</b>"}))),
        ..RenderContext::default()
    };
    let html = render(
        "<h1>{{ post.name }}</h1>{{ post.fields.corpo }}|{{ post.fields.resumo }}|{{ post.date }}|{{ post.permalink }}",
        &ctx,
    )
    .unwrap();
    assert_eq!(
        html,
        "<h1>Moqueca &lt;capixaba&gt;</h1><p>ok</p>|&lt;b&gt;x&lt;&#x2f;b&gt;|04&#x2f;03&#x2f;2026|&#x2f;blog&#x2f;moqueca"
    );
}

#[test]
fn templates_read_formatted_values_and_the_raw_ones_beside_them() {
    let block: Block = serde_json::from_value(json!({
        "uid": "grade",
        "template": "{% for it in itens %}[{{ it.preco }}|{{ it.fields.preco }}|{{ it.raw.preco }}|{{ it.cents }}|{{ it.url }}|{{ it.date }}|{{ it.date_long }}]{% endfor %}{{ post.fields.preco }}/{{ post.raw.preco }}/{{ p }}",
        "vars": [
            {"name": "itens", "type": "list", "source": "db:produtos",
             "vars": [{"name": "preco", "dbfield": "preco"}, {"name": "cents", "dbfield": "raw.preco"}]},
            {"name": "p", "type": "text", "postfield": "preco"}
        ]
    }))
    .unwrap();
    let mut no_page = post(json!({"preco": 4200}));
    no_page.permalink = String::new();
    let mut ctx = RenderContext {
        post: Some(post(json!({"preco": -150}))),
        ..RenderContext::default()
    };
    ctx.lists.insert(
        "grade:itens".into(),
        vec![post(json!({"preco": 4200})), no_page],
    );
    let page = CompiledPage::compile(std::slice::from_ref(&block)).unwrap();
    assert_eq!(
        page.render(&ctx).unwrap(),
        "[R$ 42,00|R$ 42,00|4200|4200|&#x2f;blog&#x2f;moqueca|04&#x2f;03&#x2f;2026|4 de março de 2026]\
         [R$ 42,00|R$ 42,00|4200|4200||04&#x2f;03&#x2f;2026|4 de março de 2026]\
         R$ -1,50/-150/R$ -1,50"
    );
    ctx.lang = "en".into();
    let html = page.render(&ctx).unwrap();
    assert!(
        html.contains("|03&#x2f;04&#x2f;2026|March 4, 2026]"),
        "{html}"
    );
}

#[test]
fn links_work_when_they_lead_to_a_page_of_the_project_or_outside() {
    let pages: Vec<String> = ["/", "/sobre", "/produto/*"].map(String::from).to_vec();
    let known = Some(pages.as_slice());
    for (href, works) in [
        ("/sobre", true),
        ("/sobre/", true),
        ("/sobre?x=1#y", true),
        ("/", true),
        ("/produto/pao-de-queijo", true),
        ("/produto", false),
        ("/produtos", false),
        ("/sobre/equipe", false),
        ("#precos", true),
        ("#", false),
        ("", false),
        ("  ", false),
        ("https://example.com/x", true),
        ("mailto:a@example.com", true),
        ("tel:5531", true),
        ("javascript:alert(1)", false),
        ("JavaScript:alert(1)", false),
        ("data:text/html,x", false),
    ] {
        assert_eq!(working_link(href, known), works, "{href}");
    }
    // Pages unknown: internal paths are taken as they are.
    assert!(working_link("/produtos", None));
    assert!(!working_link("#", None));
}

#[test]
fn a_see_all_link_to_a_missing_page_is_hidden_by_the_working_link_test() {
    let template = "{% if more.href is working_link %}<a href=\"{{ more.href }}\">{{ more.label }}</a>{% endif %}";
    let block = |href: &str| Block {
        uid: "b".into(),
        template: template.into(),
        vars: vec![
            json!({"name": "more", "type": "link", "value": {"href": href, "label": "Ver catálogo completo"}}),
        ],
        ..Block::default()
    };
    let ctx = RenderContext {
        pages: Some(vec!["/".into(), "/cardapio".into()]),
        ..RenderContext::default()
    };
    let html = |href| {
        CompiledPage::compile(&[block(href)])
            .unwrap()
            .render(&ctx)
            .unwrap()
    };
    assert_eq!(html("/produtos"), "");
    assert_eq!(html("#"), "");
    assert_eq!(
        html("/cardapio"),
        "<a href=\"&#x2f;cardapio\">Ver catálogo completo</a>"
    );
}

#[test]
fn lists_are_iterable_and_missing_values_render_empty() {
    let block: Block = serde_json::from_value(json!({
        "uid": "b1",
        "template": "{% for p in recentes %}[{{ p.slug }}{{ p.fields.nope }}|{{ p.titulo }}]{% endfor %}{{ missing.deep }}",
        "vars": [{"name": "recentes", "type": "list", "source": "db:receitas",
                  "vars": [{"name": "titulo", "dbfield": "name"}]}]
    }))
    .unwrap();
    let lists = block.db_lists();
    assert_eq!(lists[0].key, "b1:recentes");
    let mut ctx = RenderContext::default();
    ctx.lists.insert(
        lists[0].key.clone(),
        vec![post(json!({})), post(json!({"x": 1}))],
    );
    let html = CompiledPage::compile(&[block])
        .unwrap()
        .render(&ctx)
        .unwrap();
    assert_eq!(
        html,
        "[moqueca|Moqueca &lt;capixaba&gt;][moqueca|Moqueca &lt;capixaba&gt;]"
    );
}

#[test]
fn variables_render_by_type() {
    let block: Block = serde_json::from_value(json!({
        "uid": "hero",
        "template": "<{{ tag }} style=\"{{ bg | background }};padding:{{ pad | padding }};width:{{ w | unit }}\">{{ title }}</{{ tag }}>{{ body }}<a href=\"{{ cta.href }}\">{{ cta.label }}</a>{% for l in links | lines %}({{ l }}){% endfor %}{% for it in items %}<i>{{ it.t }}</i>{{ it.rich }}{% endfor %}",
        "vars": [
            {"name": "tag", "type": "heading", "value": "script"},
            {"name": "bg", "type": "background", "value": {"type": "gradient", "color": "#000", "color2": "#fff", "angle": 90}},
            {"name": "pad", "type": "padding", "value": {"top": 8, "right": 4, "bottom": 8, "left": 4}},
            {"name": "w", "type": "unit", "value": {"value": 50, "unit": "%"}},
            {"name": "title", "type": "text", "value": "<b>Olá</b>"},
            {"name": "body", "type": "richtext", "value": "<p onclick=\"x()\">Oi<script>alert(1)</script></p>"},
            {"name": "cta", "type": "link", "value": {"href": "/contato", "label": "Fale", "target": "_self"}},
            {"name": "links", "type": "textarea", "value": "a\n\n b \n"},
            {"name": "items", "type": "list", "vars": [{"name": "t", "type": "text"}, {"name": "rich", "type": "richtext"}],
             "value": [{"t": "um", "rich": "<em>1</em><img src=x onerror=y>"}, {"t": "dois"}]}
        ],
        "effect": "fade-in bogus"
    }))
    .unwrap();
    let html = CompiledPage::compile(&[block])
        .unwrap()
        .render(&RenderContext::default())
        .unwrap();
    assert_eq!(
        html,
        "<div class=\"vt-fx\" data-effect=\"fade-in\"><div style=\"background: linear-gradient(90deg, #000, #fff);padding:8px 4px 8px 4px;width:50%\">&lt;b&gt;Olá&lt;&#x2f;b&gt;</div><p>Oi</p><a href=\"&#x2f;contato\">Fale</a>(a)(b)<i>um</i><em>1</em><img src=\"x\"><i>dois</i></div>"
    );
}

#[test]
fn post_bindings_and_api_lists_fill_variables() {
    let block: Block = serde_json::from_value(json!({
        "uid": "item",
        "template": "{{ t }}|{{ d }}|{{ c }}|{% for r in feed %}{{ r.title }}/{{ r.id }};{% endfor %}",
        "vars": [
            {"name": "t", "type": "text", "value": "default", "postfield": "name"},
            {"name": "d", "type": "text", "postfield": "date"},
            {"name": "c", "type": "richtext", "postfield": "corpo"},
            {"name": "feed", "type": "list", "source": "api:https://example.test/feed",
             "sourceMap": {"title": "attributes.title"}}
        ]
    }))
    .unwrap();
    assert_eq!(
        block.api_lists(),
        [(
            "item:feed".to_string(),
            "https://example.test/feed".to_string()
        )]
    );
    let mut ctx = RenderContext {
        post: Some(post(json!({"corpo": "<p>ok</p>"}))),
        ..RenderContext::default()
    };
    ctx.api.insert(
        "item:feed".into(),
        vec![
            json!({"id": 1, "attributes": {"title": "A"}}),
            json!({"id": 2}),
        ],
    );
    let html = CompiledPage::compile(std::slice::from_ref(&block))
        .unwrap()
        .render(&ctx)
        .unwrap();
    assert_eq!(
        html,
        "Moqueca &lt;capixaba&gt;|04&#x2f;03&#x2f;2026|<p>ok</p>|A/1;/2;"
    );
    // Without a post (an ordinary page), the value is the definition's own.
    let html = CompiledPage::compile(&[block])
        .unwrap()
        .render(&RenderContext::default())
        .unwrap();
    assert_eq!(html, "default|||");
}

#[test]
fn each_block_renders_on_its_own() {
    let blocks: Vec<Block> = serde_json::from_value(json!([
        {"uid": "a", "template": "ok", "vars": []},
        {"uid": "b", "template": "{% if %}", "vars": []},
        {"uid": "c", "template": "{{ x }}", "vars": [{"name": "x", "value": 3}]}
    ]))
    .unwrap();
    let out = render_each(&blocks, &RenderContext::default());
    assert_eq!(out[0].as_deref(), Ok("ok"));
    assert_eq!(out[1].as_ref().unwrap_err().block, "b");
    assert_eq!(out[2].as_deref(), Ok("3"));
}

#[test]
fn syntax_errors_and_runaway_loops_name_the_block() {
    let e = render("{% for x in %}", &RenderContext::default()).unwrap_err();
    assert_eq!(e.block, "b1");
    let e = render(
        "{% for a in range(1000) %}{% for b in range(1000) %}x{% endfor %}{% endfor %}",
        &RenderContext::default(),
    )
    .unwrap_err();
    assert_eq!(e.block, "b1");
    assert!(e.message.contains("fuel"), "{}", e.message);
}

#[test]
fn checking_a_template_parses_it_and_evaluates_nothing() {
    // Compiling folds this constant, which walks 10^14 items: checking must not.
    assert_eq!(check_template("{{ 1 in [0] * 100000000000000 }}"), Ok(()));
    assert!(check_template("{% for x in %}").is_err());
    let blocks = [Block {
        uid: "quebrado".into(),
        template: "{% if %}".into(),
        ..Block::default()
    }];
    assert_eq!(check_blocks(&blocks).unwrap_err().block, "quebrado");
}

#[test]
fn output_past_the_budget_stops_the_render_and_names_the_block() {
    // 100 × 100 KB = 10 MB, twice the budget.
    let e = render(
        "{% for i in range(100) %}{{ 'x' * 100000 }}{% endfor %}",
        &RenderContext::default(),
    )
    .unwrap_err();
    assert_eq!(
        (e.block.as_str(), e.exceeded),
        ("b1", Some(Exceeded::Output))
    );
    // The budget is the page's: two blocks of 3 MB do not both fit.
    let blocks: Vec<Block> = ["a", "b"]
        .iter()
        .map(|uid| Block {
            uid: uid.to_string(),
            template: "{{ 'x' * 3000000 }}".into(),
            ..Block::default()
        })
        .collect();
    let e = CompiledPage::compile(&blocks)
        .unwrap()
        .render(&RenderContext::default())
        .unwrap_err();
    assert_eq!(
        (e.block.as_str(), e.exceeded),
        ("b", Some(Exceeded::Output))
    );
}

#[test]
fn templates_cannot_reach_files() {
    let e = render("{% include '/etc/passwd' %}", &RenderContext::default()).unwrap_err();
    assert!(e.message.contains("not found"), "{}", e.message);
}

#[test]
fn db_lists_come_from_block_vars() {
    let b: Block = serde_json::from_value(json!({
        "template": "",
        "vars": [
            {"name": "itens", "source": "db:produtos", "dblimit": "500", "dborderfield": "preco", "dborderdir": "asc",
             "dbfilterfield": "categoria", "dbfilterquery": "=", "dbfiltervalue": "Roupas"},
            {"name": "manual", "source": "manual"}
        ]
    }))
    .unwrap();
    let lists = b.db_lists();
    assert_eq!(lists.len(), 1);
    assert_eq!(lists[0].table, "produtos");
    assert_eq!(lists[0].query.limit, Some(100));
    assert_eq!(lists[0].query.filter_value.as_deref(), Some("Roupas"));
    assert!(b.is_dynamic());
}

#[test]
fn the_document_carries_canonical_open_graph_twitter_and_json_ld() {
    let parts = DocumentParts {
        lang: "pt-BR".into(),
        title: "Bolo | Padaria".into(),
        description: "Fofinho".into(),
        site_name: "Padaria".into(),
        canonical: "https://padaria.example/produtos/bolo".into(),
        og_type: "product".into(),
        favicon: "/_assets/i.svg".into(),
        favicon_type: "image/svg+xml".into(),
        json_ld: vec![
            serde_json::json!({"@context": "https://schema.org", "@type": "Thing",
            "name": "</script><script>alert(1)</script>"}),
        ],
        ..DocumentParts::default()
    };
    let doc = document(&parts, "<main>oi</main>");
    for needle in [
        "<link rel=\"canonical\" href=\"https://padaria.example/produtos/bolo\">",
        "<meta property=\"og:url\" content=\"https://padaria.example/produtos/bolo\">",
        "<meta property=\"og:type\" content=\"product\">",
        "<meta property=\"og:locale\" content=\"pt_BR\">",
        "<meta property=\"og:title\" content=\"Bolo | Padaria\">",
        "<meta property=\"og:description\" content=\"Fofinho\">",
        "<meta name=\"twitter:card\" content=\"summary\">",
        "<meta name=\"twitter:title\" content=\"Bolo | Padaria\">",
        "<meta name=\"twitter:description\" content=\"Fofinho\">",
        "<link rel=\"icon\" href=\"/_assets/i.svg\" type=\"image/svg+xml\">",
        "<script type=\"application/ld+json\">{\"@context\"",
    ] {
        assert!(doc.contains(needle), "missing {needle} in {doc}");
    }
    // Two scripts: the `vt-js` class (`JS_CLASS`) and the JSON-LD, whose text closes nothing.
    assert_eq!(doc.matches("</script>").count(), 2, "{doc}");
    assert_eq!(doc.matches("application/ld+json").count(), 1, "{doc}");
    assert!(!doc.contains("og:image") && !doc.contains("twitter:image"));
}

#[test]
fn the_document_carries_seo_fonts_favicon_code_and_pixel() {
    let parts = DocumentParts {
        title: "Início | Sal & Estrada".into(),
        description: "Receitas \"de família\"".into(),
        image: "/files/a.png".into(),
        image_size: Some((1200, 630)),
        image_alt: "Início | Sal & Estrada".into(),
        favicon: "/_assets/f.ico".into(),
        stylesheets: vec!["/_assets/fonts.css".into(), "/_assets/p.css".into()],
        scripts: vec!["/_assets/p.js".into()],
        font_family: Some("Lora".into()),
        head_code: "<meta name=\"x\" content=\"1\">".into(),
        footer_code: "<!-- fim -->".into(),
        pixel_id: Some("123456".into()),
        ..DocumentParts::default()
    };
    let doc = document(&parts, "<main>oi</main>");
    for needle in [
        "<style>html{-webkit-text-size-adjust:100%;text-size-adjust:100%}body{margin:0}",
        "<title>Início | Sal &amp; Estrada</title>",
        "content=\"Receitas &quot;de família&quot;\"",
        "og:image\" content=\"/files/a.png\"",
        "<meta name=\"twitter:card\" content=\"summary_large_image\">",
        "<meta name=\"twitter:image\" content=\"/files/a.png\">",
        "<meta property=\"og:image:width\" content=\"1200\">",
        "<meta property=\"og:image:height\" content=\"630\">",
        "<meta property=\"og:image:alt\" content=\"Início | Sal &amp; Estrada\">",
        "<meta name=\"twitter:image:alt\" content=\"Início | Sal &amp; Estrada\">",
        "<link rel=\"icon\" href=\"/_assets/f.ico\">",
        "<link rel=\"stylesheet\" href=\"/_assets/fonts.css\">",
        "--font-body:\"Lora\"",
        "<meta name=\"x\" content=\"1\">\n</head>",
        "fbq('init','123456')",
        "<main>oi</main>\n<!-- fim -->\n<script src=\"/_assets/p.js\" defer>",
    ] {
        assert!(doc.contains(needle), "missing {needle} in {doc}");
    }
    let no_pixel = document(
        &DocumentParts {
            pixel_id: Some("1');alert(1);//".into()),
            ..DocumentParts::default()
        },
        "",
    );
    assert!(!no_pixel.contains("fbq"));
}
