//! The page renderer, shared by publishing (static pages), the edge (collection pages and
//! pages with database-fed lists, rendered from live records) and the editor's preview.
//!
//! Block templates are site owners' code, so they run in MiniJinja, chosen because it is a
//! well-kept Jinja2 engine with no I/O at all (no file loader is configured, so `include` and
//! `import` find nothing), automatic HTML escaping, and a *fuel* limit that stops a template
//! that loops too long. A template error names the block; the owner's preview shows it and
//! visitors get the site's 500 page.
//!
//! The document around the blocks (title, SEO tags, fonts, favicon, header and footer code,
//! the conversion pixel) is assembled here as plain text, never as a template, so nothing an
//! owner types into a setting is ever evaluated.
//!
//! Context a block template sees:
//! - `post`: on a collection page, `{id, name, slug, created_at, date, permalink, fields}`
//!   with `fields` keyed by field slug (the spec's Date, Name, Permalink bindings);
//! - each database-fed list a block declares (`vars[].source = "db:…"`) under its name, as a
//!   list of records of the same shape;
//! - `site`: `{name, slug}`, `page`: `{name, slug}`.

use std::collections::BTreeMap;

use minijinja::{AutoEscape, Environment, Value, value::ValueKind};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::content::{DbRecord, ListQuery};

/// Instructions one render may spend: plenty for real pages, a stop for runaway loops.
pub const FUEL: u64 = 200_000;

/// A block as the page stores it (the parts rendering needs).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Block {
    #[serde(default)]
    pub uid: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub template: String,
    #[serde(default)]
    pub css: String,
    #[serde(default)]
    pub js: String,
    /// Variable definitions; those whose `source` starts with `db:` are database-fed lists.
    #[serde(default)]
    pub vars: Vec<Json>,
}

/// A database-fed list a block declares: `{name, source: "db:{table}" | dbtable, dbfilterfield,
/// dbfiltervalue, dbfilterquery (operator), dborderfield, dborderdir, dblimit, dboffset}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbList {
    /// The name the block's template reads the list under.
    pub name: String,
    /// Collection slug.
    pub table: String,
    pub query: ListQuery,
}

fn str_of(v: &Json, key: &str) -> Option<String> {
    match v.get(key)? {
        Json::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Json::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn int_of(v: &Json, key: &str) -> Option<i64> {
    match v.get(key)? {
        Json::Number(n) => n.as_i64(),
        Json::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

impl Block {
    /// Parses a page's `blocks` JSON; entries that are not objects are skipped.
    pub fn list(blocks: &Json) -> Vec<Block> {
        blocks
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|b| serde_json::from_value(b.clone()).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The database-fed lists this block declares.
    pub fn db_lists(&self) -> Vec<DbList> {
        self.vars
            .iter()
            .filter_map(|v| {
                let source = v.get("source")?.as_str()?;
                let rest = source.strip_prefix("db:")?;
                let name = str_of(v, "name").or_else(|| str_of(v, "key"))?;
                let table = str_of(v, "dbtable").unwrap_or_else(|| rest.trim().to_string());
                if table.is_empty() {
                    return None;
                }
                Some(DbList {
                    name,
                    table,
                    query: ListQuery {
                        filter_field: str_of(v, "dbfilterfield"),
                        filter_op: str_of(v, "dbfilterquery"),
                        filter_value: str_of(v, "dbfiltervalue"),
                        order_field: str_of(v, "dborderfield"),
                        order_dir: str_of(v, "dborderdir"),
                        limit: int_of(v, "dblimit").map(|l| l.clamp(1, 100)),
                        offset: int_of(v, "dboffset").map(|o| o.max(0)),
                    },
                })
            })
            .collect()
    }

    /// Whether rendering this block needs anything beyond the publish-time context.
    pub fn is_dynamic(&self) -> bool {
        !self.db_lists().is_empty()
    }
}

/// Why a page could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("block {block:?}: {message}")]
pub struct RenderError {
    /// The uid (or name) of the block whose template failed.
    pub block: String,
    pub message: String,
}

/// A page's blocks compiled once (per deploy at the edge) and rendered many times.
pub struct CompiledPage {
    env: Environment<'static>,
    names: Vec<String>,
}

fn new_env() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    env.set_fuel(Some(FUEL));
    env.set_recursion_limit(64);
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Chainable);
    env
}

/// Checks a block template's syntax (the editor's block-code save and the fuzz target).
pub fn check_template(source: &str) -> Result<(), String> {
    let mut env = new_env();
    env.add_template_owned("block", source.to_string())
        .map_err(|e| e.to_string())
}

impl CompiledPage {
    /// Compiles every block; the first syntax error is returned with its block named.
    pub fn compile(blocks: &[Block]) -> Result<CompiledPage, RenderError> {
        let mut env = new_env();
        let mut names = Vec::with_capacity(blocks.len());
        for (i, b) in blocks.iter().enumerate() {
            let name = format!("{i}:{}", if b.uid.is_empty() { &b.name } else { &b.uid });
            env.add_template_owned(name.clone(), b.template.clone())
                .map_err(|e| RenderError {
                    block: block_label(b),
                    message: describe(&e),
                })?;
            names.push(name);
        }
        Ok(CompiledPage { env, names })
    }

    /// Renders the blocks' HTML in order, joined by newlines.
    pub fn render(&self, ctx: &RenderContext) -> Result<String, RenderError> {
        let ctx = ctx.to_value();
        let mut out = String::new();
        for name in &self.names {
            let tmpl = self.env.get_template(name).map_err(|e| RenderError {
                block: label_of(name),
                message: describe(&e),
            })?;
            let html = tmpl.render(&ctx).map_err(|e| RenderError {
                block: label_of(name),
                message: describe(&e),
            })?;
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&html);
        }
        Ok(out)
    }
}

fn block_label(b: &Block) -> String {
    if b.uid.is_empty() {
        b.name.clone()
    } else {
        b.uid.clone()
    }
}

fn label_of(name: &str) -> String {
    name.split_once(':').map(|(_, l)| l).unwrap_or(name).into()
}

fn describe(e: &minijinja::Error) -> String {
    let mut msg = e.to_string();
    if let Some(line) = e.line()
        && !msg.contains("line")
    {
        msg.push_str(&format!(" (line {line})"));
    }
    msg
}

/// The live data a render sees.
#[derive(Debug, Clone, Default)]
pub struct RenderContext {
    pub site_name: String,
    pub site_slug: String,
    pub page_name: String,
    pub page_slug: String,
    /// The post of a collection page, and the rich-text field slugs whose values are already
    /// sanitised HTML (they are output without escaping).
    pub post: Option<PostView>,
    /// Database-fed lists by name.
    pub lists: BTreeMap<String, Vec<PostView>>,
}

/// A record ready for templates.
#[derive(Debug, Clone, PartialEq)]
pub struct PostView {
    pub record: DbRecord,
    /// `/{page slug}/{post slug}` when the collection has a page.
    pub permalink: String,
    /// Field slugs holding sanitised HTML (wysiwyg).
    pub html_fields: Vec<String>,
}

impl PostView {
    fn to_value(&self) -> Value {
        let mut fields = BTreeMap::new();
        for (k, v) in &self.record.fields {
            let value = match v {
                Json::String(s) if self.html_fields.iter().any(|h| h == k) => {
                    Value::from_safe_string(s.clone())
                }
                other => Value::from_serialize(other),
            };
            fields.insert(k.clone(), value);
        }
        let created = self.record.created_at;
        let mut map = BTreeMap::new();
        map.insert("id".to_string(), Value::from(self.record.id));
        map.insert("name".into(), Value::from(self.record.name.clone()));
        map.insert("slug".into(), Value::from(self.record.slug.clone()));
        map.insert("created_at".into(), Value::from(created.to_rfc3339()));
        map.insert(
            "date".into(),
            Value::from(created.format("%d/%m/%Y").to_string()),
        );
        map.insert("permalink".into(), Value::from(self.permalink.clone()));
        map.insert("fields".into(), Value::from_object(fields));
        Value::from_object(map)
    }
}

impl RenderContext {
    fn to_value(&self) -> Value {
        let mut map: BTreeMap<String, Value> = BTreeMap::new();
        for (name, items) in &self.lists {
            map.insert(
                name.clone(),
                Value::from(items.iter().map(PostView::to_value).collect::<Vec<_>>()),
            );
        }
        let site: BTreeMap<&str, Value> = [
            ("name", Value::from(self.site_name.clone())),
            ("slug", Value::from(self.site_slug.clone())),
        ]
        .into();
        let page: BTreeMap<&str, Value> = [
            ("name", Value::from(self.page_name.clone())),
            ("slug", Value::from(self.page_slug.clone())),
        ]
        .into();
        map.insert("site".into(), Value::from_serialize(&site));
        map.insert("page".into(), Value::from_serialize(&page));
        if let Some(post) = &self.post {
            map.insert("post".into(), post.to_value());
        }
        let v = Value::from_object(map);
        debug_assert_eq!(v.kind(), ValueKind::Map);
        v
    }
}

/// Everything around the blocks of one page, resolved to final URLs by the caller.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentParts {
    pub lang: String,
    pub title: String,
    pub description: String,
    /// SEO image URL.
    pub image: String,
    pub favicon: String,
    /// Stylesheets (fonts first, then the page's blocks).
    pub stylesheets: Vec<String>,
    pub scripts: Vec<String>,
    /// CSS custom properties for the fonts (`--font-body`, `--font-heading`).
    pub font_family: Option<String>,
    /// Owner code for `<head>`: the project header, then the page's header/meta.
    pub head_code: String,
    /// Owner code at the end of `<body>`: the project footer.
    pub footer_code: String,
    /// Facebook pixel id (the conversion pixel), when configured.
    pub pixel_id: Option<String>,
}

/// HTML-escapes text for element content and double-quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Assembles the full HTML document around a rendered body.
pub fn document(parts: &DocumentParts, body: &str) -> String {
    let mut h = String::with_capacity(body.len() + 2048);
    let lang = if parts.lang.is_empty() {
        "pt-BR"
    } else {
        &parts.lang
    };
    h.push_str(&format!(
        "<!doctype html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n",
        escape(lang),
        escape(&parts.title)
    ));
    h.push_str(&format!(
        "<meta property=\"og:title\" content=\"{}\">\n",
        escape(&parts.title)
    ));
    if !parts.description.is_empty() {
        let d = escape(&parts.description);
        h.push_str(&format!(
            "<meta name=\"description\" content=\"{d}\">\n<meta property=\"og:description\" content=\"{d}\">\n"
        ));
    }
    if !parts.image.is_empty() {
        h.push_str(&format!(
            "<meta property=\"og:image\" content=\"{}\">\n<meta name=\"twitter:card\" content=\"summary_large_image\">\n",
            escape(&parts.image)
        ));
    }
    if !parts.favicon.is_empty() {
        h.push_str(&format!(
            "<link rel=\"icon\" href=\"{}\">\n",
            escape(&parts.favicon)
        ));
    }
    for href in &parts.stylesheets {
        h.push_str(&format!(
            "<link rel=\"stylesheet\" href=\"{}\">\n",
            escape(href)
        ));
    }
    if let Some(family) = &parts.font_family {
        let family = family.replace(['"', '\\', '<', '>', ';', '{', '}'], "");
        h.push_str(&format!(
            "<style>:root{{--font-body:\"{family}\",system-ui,sans-serif;--font-heading:\"{family}\",system-ui,sans-serif}}body{{font-family:var(--font-body)}}</style>\n"
        ));
    }
    if let Some(pixel) = parts
        .pixel_id
        .as_deref()
        .filter(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    {
        h.push_str(&format!(
            "<script>!function(f,b,e,v,n,t,s){{if(f.fbq)return;n=f.fbq=function(){{n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)}};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init','{pixel}');fbq('track','PageView');</script>\n"
        ));
    }
    if !parts.head_code.is_empty() {
        h.push_str(&parts.head_code);
        h.push('\n');
    }
    h.push_str("</head>\n<body>\n");
    h.push_str(body);
    h.push('\n');
    if !parts.footer_code.is_empty() {
        h.push_str(&parts.footer_code);
        h.push('\n');
    }
    for src in &parts.scripts {
        h.push_str(&format!(
            "<script src=\"{}\" defer></script>\n",
            escape(src)
        ));
    }
    h.push_str("</body>\n</html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use serde_json::json;

    fn post(fields: Json) -> PostView {
        PostView {
            record: DbRecord {
                id: 7,
                name: "Moqueca <capixaba>".into(),
                slug: "moqueca".into(),
                created_at: chrono::Utc.with_ymd_and_hms(2026, 3, 4, 10, 0, 0).unwrap(),
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
    fn lists_are_iterable_and_missing_values_render_empty() {
        let mut ctx = RenderContext::default();
        ctx.lists.insert(
            "recentes".into(),
            vec![post(json!({})), post(json!({"x": 1}))],
        );
        let html = render(
            "{% for p in recentes %}[{{ p.slug }}{{ p.fields.nope }}]{% endfor %}{{ missing.deep }}",
            &ctx,
        )
        .unwrap();
        assert_eq!(html, "[moqueca][moqueca]");
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
    fn the_document_carries_seo_fonts_favicon_code_and_pixel() {
        let parts = DocumentParts {
            title: "Início | Sal & Estrada".into(),
            description: "Receitas \"de família\"".into(),
            image: "/files/a.png".into(),
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
            "<title>Início | Sal &amp; Estrada</title>",
            "content=\"Receitas &quot;de família&quot;\"",
            "og:image\" content=\"/files/a.png\"",
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
}
