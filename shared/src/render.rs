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
//! - `site`: `{name, slug, lang, pages, menu}` (`menu`: the site menu, see `crate::sections`),
//!   `page`: `{name, slug}`.

use std::collections::BTreeMap;

use minijinja::{AutoEscape, Environment, Value};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::record_lists::{DbRecord, ListQuery};
use crate::values::{Lang, format_date, format_long_date};

/// Instructions one render may spend: plenty for real pages, a stop for runaway loops.
pub const FUEL: u64 = 200_000;

/// Bytes of HTML one page render may write (all its blocks together). The writer stops the
/// render when it would pass this, so an oversized page is never held in memory whole.
pub const MAX_OUTPUT_BYTES: usize = 5 * 1024 * 1024;

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
    /// Variable definitions with their values (`docs/blocks.md`); lists whose `source` starts
    /// with `db:` are database-fed, with `api:` fetched from an outside JSON API.
    #[serde(default)]
    pub vars: Vec<Json>,
    /// Animation effects, space-separated (`fade-in enter-left`).
    #[serde(default)]
    pub effect: String,
}

/// A database-fed list a block declares: `{name, source: "db:{table}" | dbtable, dbfilterfield,
/// dbfiltervalue, dbfilterquery (operator), dborderfield, dborderdir, dblimit, dboffset}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbList {
    /// The name the block's template reads the list under.
    pub name: String,
    /// Where the caller puts the records in [`RenderContext::lists`]: the block and the name,
    /// so two blocks may both call their list `items`.
    pub key: String,
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
                    key: list_key(self, &name),
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

    /// The outside JSON APIs this block's lists read (`source = "api:{url}"`), as
    /// `(key in RenderContext::api, url)`.
    pub fn api_lists(&self) -> Vec<(String, String)> {
        self.vars
            .iter()
            .filter_map(|v| {
                let url = v.get("source")?.as_str()?.strip_prefix("api:")?.trim();
                let name = str_of(v, "name")?;
                (!url.is_empty()).then(|| (list_key(self, &name), url.to_string()))
            })
            .collect()
    }

    /// What errors call the block: its uid, else its name.
    pub fn label(&self) -> String {
        block_label(self)
    }

    /// Whether rendering this block needs anything beyond the publish-time context.
    pub fn is_dynamic(&self) -> bool {
        !self.db_lists().is_empty()
    }

    /// Whether the block plays an animation effect.
    pub fn has_effect(&self) -> bool {
        !crate::blocks::effects(&self.effect).is_empty()
    }
}

fn list_key(block: &Block, name: &str) -> String {
    format!("{}:{name}", block_label(block))
}

/// Why a page could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("block {block:?}: {message}")]
pub struct RenderError {
    /// The uid (or name) of the block whose template failed.
    pub block: String,
    pub message: String,
    /// Set when the block went over a render budget (rather than having a template error).
    #[serde(default)]
    pub exceeded: Option<Exceeded>,
}

/// The budget a render went over (`docs/security.md`, "Limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exceeded {
    /// More than [`MAX_OUTPUT_BYTES`] of HTML.
    Output,
    /// The render sandbox's memory limit (a value grew too large before it was written).
    Memory,
    /// The render sandbox's CPU time limit, or its wall-clock deadline.
    Time,
}

impl Exceeded {
    /// The label `/metrics` counts it under.
    pub fn as_str(self) -> &'static str {
        match self {
            Exceeded::Output => "output",
            Exceeded::Memory => "memory",
            Exceeded::Time => "time",
        }
    }

    /// What the owner is told.
    pub fn message(self) -> &'static str {
        match self {
            Exceeded::Output => "the page's HTML is larger than 5 MB",
            Exceeded::Memory => "the template used more memory than a render may",
            Exceeded::Time => "the template ran for longer than a render may (1 s of CPU)",
        }
    }
}

impl RenderError {
    /// A block that went over a budget.
    pub fn exceeded(block: impl Into<String>, reason: Exceeded) -> RenderError {
        RenderError {
            block: block.into(),
            message: format!("render budget exceeded: {}", reason.message()),
            exceeded: Some(reason),
        }
    }
}

/// A page's blocks compiled once (per deploy at the edge) and rendered many times.
pub struct CompiledPage {
    env: Environment<'static>,
    names: Vec<String>,
    blocks: Vec<BlockVars>,
}

/// What rendering one block needs besides its template.
struct BlockVars {
    label: String,
    vars: Vec<Json>,
    effects: Vec<&'static str>,
}

fn new_env() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    env.set_fuel(Some(FUEL));
    env.set_recursion_limit(64);
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Chainable);
    env.add_filter("background", |v: Value| {
        crate::blocks::css_background(&to_json(&v))
    });
    env.add_filter("unit", |v: Value| crate::blocks::css_unit(&to_json(&v)));
    env.add_filter("padding", |v: Value| {
        crate::blocks::css_padding(&to_json(&v))
    });
    env.add_test("working_link", |state: &minijinja::State, v: Value| {
        let pages = state
            .lookup("site")
            .and_then(|site| site.get_attr("pages").ok())
            .filter(|p| !p.is_undefined() && !p.is_none())
            .map(|p| {
                p.try_iter()
                    .map(|it| {
                        it.filter_map(|x| x.as_str().map(String::from))
                            .collect::<Vec<String>>()
                    })
                    .unwrap_or_default()
            });
        working_link(v.as_str().unwrap_or_default(), pages.as_deref())
    });
    env.add_filter("lines", |v: Value| -> Vec<String> {
        v.as_str()
            .unwrap_or_default()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect()
    });
    env
}

/// Whether a link leads somewhere: an outside link (`https:`, `http:`, `mailto:`, `tel:`), an
/// anchor on the page (`#precos`), or an internal path of one of `pages` (the project's page
/// paths, `/{slug}/*` standing for a collection page's posts). Nothing (`""`, `"#"`) and
/// script links lead nowhere. When the pages are unknown (`None`), internal paths are taken
/// as they are. Templates use it as `{% if more.href is working_link %}`.
pub fn working_link(href: &str, pages: Option<&[String]>) -> bool {
    let href = href.trim();
    if href.is_empty() || href == "#" {
        return false;
    }
    if href.starts_with('#') {
        return true;
    }
    let lower = href.to_ascii_lowercase();
    if ["https://", "http://", "mailto:", "tel:", "//"]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        return true;
    }
    if lower.contains(':') && !lower.starts_with('/') {
        // Another scheme (javascript:, data:, …): not a link a block should show.
        let scheme_end = lower.find(':').unwrap_or(0);
        if !lower[..scheme_end].contains(['/', '?', '#']) {
            return false;
        }
    }
    let Some(pages) = pages else {
        return true;
    };
    let path = href.split(['?', '#']).next().unwrap_or("");
    let path = path.trim_matches('/');
    if path.is_empty() {
        return pages.iter().any(|p| p == "/");
    }
    let segments: Vec<&str> = path.split('/').collect();
    pages.iter().any(|p| {
        let p = p.trim_matches('/');
        match p.strip_suffix("/*") {
            Some(collection) => segments.len() == 2 && segments[0] == collection,
            None => p == path,
        }
    })
}

fn to_json(v: &Value) -> Json {
    serde_json::to_value(v).unwrap_or(Json::Null)
}

/// Checks a block template's syntax (the editor's block-code save, the publisher and the
/// owner's preview before anything is read, and the fuzz target) by parsing it only.
///
/// Compiling is not safe outside the render sandbox (`crate::sandbox`): MiniJinja's code
/// generator folds constant expressions by evaluating them, so compiling
/// `{{ 1 in [0] * 10**14 }}` runs for hours and `{{ ('x' * 100000000) ~ ('x' * 100000000) }}`
/// allocates 200 MB. The parser (MiniJinja's `unstable_machinery`, pinned by `Cargo.lock`)
/// evaluates nothing.
pub fn check_template(source: &str) -> Result<(), String> {
    minijinja::machinery::parse(source, "block", Default::default(), Default::default())
        .map(drop)
        .map_err(|e| describe(&e))
}

/// [`check_template`] for each block; the first error names its block.
pub fn check_blocks(blocks: &[Block]) -> Result<(), RenderError> {
    for b in blocks {
        check_template(&b.template).map_err(|message| RenderError {
            block: block_label(b),
            message,
            exceeded: None,
        })?;
    }
    Ok(())
}

impl CompiledPage {
    /// Compiles every block; the first syntax error is returned with its block named.
    ///
    /// Compiling evaluates constant expressions (see [`check_template`]): owners' templates
    /// compile in the render sandbox only.
    pub fn compile(blocks: &[Block]) -> Result<CompiledPage, RenderError> {
        Self::compile_with(blocks, |_| {})
    }

    /// [`CompiledPage::compile`], telling `before` which block is about to compile (the render
    /// sandbox reports it, so a block whose constants take the worker down is named).
    pub fn compile_with(
        blocks: &[Block],
        mut before: impl FnMut(usize),
    ) -> Result<CompiledPage, RenderError> {
        let mut env = new_env();
        let mut names = Vec::with_capacity(blocks.len());
        let mut vars = Vec::with_capacity(blocks.len());
        for (i, b) in blocks.iter().enumerate() {
            before(i);
            let name = format!("{i}:{}", block_label(b));
            env.add_template_owned(name.clone(), b.template.clone())
                .map_err(|e| RenderError {
                    block: block_label(b),
                    message: describe(&e),
                    exceeded: None,
                })?;
            names.push(name);
            vars.push(BlockVars {
                label: block_label(b),
                vars: b.vars.clone(),
                effects: crate::blocks::effects(&b.effect),
            });
        }
        Ok(CompiledPage {
            env,
            names,
            blocks: vars,
        })
    }

    /// Renders the blocks' HTML in order, joined by newlines, within [`MAX_OUTPUT_BYTES`].
    pub fn render(&self, ctx: &RenderContext) -> Result<String, RenderError> {
        let mut out = String::new();
        let mut left = MAX_OUTPUT_BYTES;
        self.render_blocks(
            ctx,
            &mut left,
            |_| {},
            |_, html| {
                let html = html?;
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&html);
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// The number of blocks.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the page has no blocks.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The label (uid or name) of block `i`, as errors name it.
    pub fn label(&self, i: usize) -> &str {
        &self.blocks[i].label
    }

    /// Renders block after block, all of them sharing the `left` output budget: `start` is told
    /// before each block begins (the render sandbox reports it, so a block that takes the
    /// worker down is named), `done` gets each block's result and stops the page by returning
    /// an error.
    pub fn render_blocks(
        &self,
        ctx: &RenderContext,
        left: &mut usize,
        mut start: impl FnMut(usize),
        mut done: impl FnMut(usize, Result<String, RenderError>) -> Result<(), RenderError>,
    ) -> Result<(), RenderError> {
        let base = ctx.base();
        for i in 0..self.names.len() {
            start(i);
            let html = self.render_one(i, &base, ctx, left);
            done(i, html)?;
        }
        Ok(())
    }

    fn render_one(
        &self,
        i: usize,
        base: &BTreeMap<String, Value>,
        ctx: &RenderContext,
        left: &mut usize,
    ) -> Result<String, RenderError> {
        let name = &self.names[i];
        let block = &self.blocks[i];
        let fail = |e: minijinja::Error| RenderError {
            block: label_of(name),
            message: describe(&e),
            exceeded: None,
        };
        let mut values = base.clone();
        for def in &block.vars {
            if let Some((var, value)) = var_value(def, &block.label, ctx) {
                values.insert(var, value);
            }
        }
        let tmpl = self.env.get_template(name).map_err(fail)?;
        // The wrapper of an effect counts against the budget too.
        let wrapper = if block.effects.is_empty() {
            0
        } else {
            64 + block.effects.iter().map(|e| e.len() + 1).sum::<usize>()
        };
        let mut out = CappedWriter {
            buf: Vec::new(),
            left: left.saturating_sub(wrapper),
            over: false,
        };
        let rendered = tmpl
            .render_captured_to(Value::from_object(values), &mut out)
            .map(drop);
        if out.over || (wrapper > 0 && wrapper > *left) {
            return Err(RenderError::exceeded(label_of(name), Exceeded::Output));
        }
        rendered.map_err(fail)?;
        *left = left.saturating_sub(out.buf.len() + wrapper);
        let html = String::from_utf8(out.buf)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Ok(if block.effects.is_empty() {
            html
        } else {
            format!(
                "<div class=\"vt-fx\" data-effect=\"{}\">{html}</div>",
                block.effects.join(" ")
            )
        })
    }
}

/// The render's output, which refuses (and so stops the template) at the page's budget:
/// MiniJinja streams into it, so an oversized page is cut off while it is being written.
struct CappedWriter {
    buf: Vec<u8>,
    left: usize,
    over: bool,
}

impl std::io::Write for CappedWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.buf.len() + data.len() > self.left {
            self.over = true;
            return Err(std::io::Error::other("render output budget exceeded"));
        }
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Renders each block on its own (the editor's preview): one block's error does not hide the
/// others.
pub fn render_each(blocks: &[Block], ctx: &RenderContext) -> Vec<Result<String, RenderError>> {
    let base = ctx.base();
    let mut left = MAX_OUTPUT_BYTES;
    blocks
        .iter()
        .map(|b| {
            let page = CompiledPage::compile(std::slice::from_ref(b))?;
            page.render_one(0, &base, ctx, &mut left)
        })
        .collect()
}

/// The value a variable definition gives its block's template, under the definition's name.
fn var_value(def: &Json, label: &str, ctx: &RenderContext) -> Option<(String, Value)> {
    let name = str_of(def, "name").or_else(|| str_of(def, "key"))?;
    let kind = def.get("type").and_then(Json::as_str).unwrap_or("text");
    let source = def.get("source").and_then(Json::as_str).unwrap_or("");
    if source.starts_with("db:") {
        let key = format!("{label}:{name}");
        let items = ctx.lists.get(&key).map(Vec::as_slice).unwrap_or_default();
        let subs = sub_defs(def);
        let value = items
            .iter()
            .map(|p| {
                let mut item = p.to_map(ctx.lang());
                for sub in subs {
                    if let (Some(n), Some(field)) = (str_of(sub, "name"), str_of(sub, "dbfield")) {
                        item.insert(n, p.field(&field, ctx.lang()));
                    }
                }
                Value::from_object(item)
            })
            .collect::<Vec<_>>();
        return Some((name, Value::from(value)));
    }
    if source.starts_with("api:") {
        let key = format!("{label}:{name}");
        let map = def.get("sourceMap").and_then(Json::as_object);
        // Fetched for this render (the editor), else as fetched at publish time.
        let items = match ctx.api.get(&key) {
            Some(v) => v.as_slice(),
            None => def
                .get("records")
                .and_then(Json::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default(),
        };
        let value = items
            .iter()
            .take(100)
            .map(|record| {
                let mut item: BTreeMap<String, Value> = match record {
                    Json::Object(o) => o.iter().map(|(k, v)| (k.clone(), json_value(v))).collect(),
                    _ => BTreeMap::new(),
                };
                for (sub, path) in map.into_iter().flatten() {
                    if let Some(path) = path.as_str() {
                        let found = path
                            .split('.')
                            .filter(|p| !p.is_empty())
                            .try_fold(record, |v, p| v.get(p))
                            .cloned()
                            .unwrap_or(Json::Null);
                        item.insert(sub.clone(), json_value(&found));
                    }
                }
                Value::from_object(item)
            })
            .collect::<Vec<_>>();
        return Some((name, Value::from(value)));
    }
    if kind != "list"
        && let (Some(field), Some(post)) = (str_of(def, "postfield"), &ctx.post)
    {
        return Some((name, post.field(&field, ctx.lang())));
    }
    let value = def.get("value").unwrap_or(&Json::Null);
    Some((name, typed_value(kind, value, sub_defs(def))))
}

/// A stored JSON value for templates, with `null` (an emptied field) rendering as nothing
/// rather than `none`.
fn json_value(v: &Json) -> Value {
    match v {
        Json::Null => Value::UNDEFINED,
        Json::Array(a) => Value::from(a.iter().map(json_value).collect::<Vec<_>>()),
        Json::Object(o) => Value::from_object(
            o.iter()
                .map(|(k, v)| (k.clone(), json_value(v)))
                .collect::<BTreeMap<_, _>>(),
        ),
        other => Value::from_serialize(other),
    }
}

fn sub_defs(def: &Json) -> &[Json] {
    def.get("vars")
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// A stored value made ready for templates: rich text sanitised and marked safe, heading tags
/// kept to the allowed ones, list items typed by their sub-definitions.
fn typed_value(kind: &str, value: &Json, subs: &[Json]) -> Value {
    match kind {
        "richtext" => Value::from_safe_string(ammonia::clean(value.as_str().unwrap_or_default())),
        "heading" => Value::from(crate::blocks::heading_tag(value)),
        "list" => {
            let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
            Value::from(
                items
                    .iter()
                    .map(|item| {
                        let mut out: BTreeMap<String, Value> = match item {
                            Json::Object(o) => {
                                o.iter().map(|(k, v)| (k.clone(), json_value(v))).collect()
                            }
                            _ => BTreeMap::new(),
                        };
                        for sub in subs {
                            if let Some(n) = str_of(sub, "name") {
                                let kind = sub.get("type").and_then(Json::as_str).unwrap_or("text");
                                let v = item.get(&n).unwrap_or(&Json::Null);
                                out.insert(n, typed_value(kind, v, sub_defs(sub)));
                            }
                        }
                        Value::from_object(out)
                    })
                    .collect::<Vec<_>>(),
            )
        }
        _ => json_value(value),
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

/// The live data a render sees (sent to the render sandbox as JSON).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RenderContext {
    pub site_name: String,
    pub site_slug: String,
    pub page_name: String,
    pub page_slug: String,
    /// The post of a collection page, and the rich-text field slugs whose values are already
    /// sanitised HTML (they are output without escaping).
    pub post: Option<PostView>,
    /// Database-fed lists by [`DbList::key`].
    pub lists: BTreeMap<String, Vec<PostView>>,
    /// Records of lists read from outside JSON APIs, by the key of [`Block::api_lists`].
    pub api: BTreeMap<String, Vec<Json>>,
    /// The site's language (`pt-BR` or `en`, the owner's setting): dates are written in it.
    #[serde(default)]
    pub lang: String,
    /// The project's page paths (`/`, `/sobre`, and `/{slug}/*` for a collection page), when
    /// the caller knows them: the `working_link` test finds internal links against them.
    #[serde(default)]
    pub pages: Option<Vec<String>>,
    /// The site menu (`crate::sections::menu`), when the caller knows it: templates read it as
    /// `site.menu`, a list of `{name, url, current}`.
    #[serde(default)]
    pub menu: Option<Vec<crate::sections::MenuItem>>,
}

/// A record ready for templates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PostView {
    pub record: DbRecord,
    /// `/{page slug}/{post slug}` when the collection has a page.
    pub permalink: String,
    /// Field slugs holding sanitised HTML (wysiwyg).
    pub html_fields: Vec<String>,
}

impl PostView {
    /// The post's value for a binding: `name`, `slug`, `date`, `date_long`, `created_at`,
    /// `permalink`, `url`, `id`, a field slug (its formatted value, see [`crate::values`]) or
    /// `raw.{field slug}` (the stored value).
    pub fn field(&self, binding: &str, lang: Lang) -> Value {
        let created = self.record.created_at;
        match binding {
            "name" => Value::from(self.record.name.clone()),
            "slug" => Value::from(self.record.slug.clone()),
            "id" => Value::from(self.record.id),
            "date" => Value::from(format_date(created, lang)),
            "date_long" => Value::from(format_long_date(created, lang)),
            "created_at" => Value::from(created.to_rfc3339()),
            "permalink" => Value::from(self.permalink.clone()),
            "url" => self.url(),
            other => match other.strip_prefix("raw.") {
                Some(raw) => self.raw_value(raw),
                None => self.value(other.strip_prefix("fields.").unwrap_or(other)),
            },
        }
    }

    /// The post's page, or undefined (so `{% if it.url %}` hides a link) when its collection
    /// has no collection page.
    fn url(&self) -> Value {
        if self.permalink.is_empty() {
            Value::UNDEFINED
        } else {
            Value::from(self.permalink.clone())
        }
    }

    /// A field's stored value (rich text already sanitised, marked safe).
    fn raw_value(&self, slug: &str) -> Value {
        match self.record.fields.get(slug) {
            Some(Json::String(s)) if self.html_fields.iter().any(|h| h == slug) => {
                Value::from_safe_string(s.clone())
            }
            Some(v) => json_value(v),
            None => Value::UNDEFINED,
        }
    }

    /// A field's value as visitors read it: the formatted form when its type has one.
    fn value(&self, slug: &str) -> Value {
        match self.record.formatted.get(slug) {
            Some(v) => json_value(v),
            None => self.raw_value(slug),
        }
    }

    fn to_value(&self, lang: Lang) -> Value {
        Value::from_object(self.to_map(lang))
    }

    fn to_map(&self, lang: Lang) -> BTreeMap<String, Value> {
        let slugs = || self.record.fields.keys();
        let fields: BTreeMap<String, Value> = slugs().map(|k| (k.clone(), self.value(k))).collect();
        let raw: BTreeMap<String, Value> =
            slugs().map(|k| (k.clone(), self.raw_value(k))).collect();
        let mut map = BTreeMap::new();
        for key in [
            "id",
            "name",
            "slug",
            "created_at",
            "date",
            "date_long",
            "permalink",
            "url",
        ] {
            map.insert(key.to_string(), self.field(key, lang));
        }
        map.insert("fields".into(), Value::from_object(fields));
        map.insert("raw".into(), Value::from_object(raw));
        map
    }
}

impl RenderContext {
    fn lang(&self) -> Lang {
        Lang::parse(&self.lang)
    }

    /// `site.menu`: each item with `current` set on the page being rendered (and on the
    /// collection page a post belongs to); undefined when the menu is unknown.
    fn menu_value(&self) -> Value {
        let Some(menu) = &self.menu else {
            return Value::UNDEFINED;
        };
        let here = format!("/{}", self.page_slug.trim_matches('/'));
        Value::from(
            menu.iter()
                .map(|item| {
                    let current = item.url == here;
                    Value::from_serialize(serde_json::json!({
                        "name": item.name,
                        "url": item.url,
                        "current": current,
                    }))
                })
                .collect::<Vec<_>>(),
        )
    }

    /// What every block sees: `site`, `page` and, on a collection page, `post`.
    fn base(&self) -> BTreeMap<String, Value> {
        let mut map: BTreeMap<String, Value> = BTreeMap::new();
        let site: BTreeMap<&str, Value> = [
            ("name", Value::from(self.site_name.clone())),
            ("slug", Value::from(self.site_slug.clone())),
            (
                "lang",
                Value::from(if self.lang.is_empty() {
                    "pt-BR"
                } else {
                    &self.lang
                }),
            ),
            (
                "pages",
                self.pages
                    .as_ref()
                    .map(Value::from_serialize)
                    .unwrap_or(Value::UNDEFINED),
            ),
            ("menu", self.menu_value()),
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
            map.insert("post".into(), post.to_value(self.lang()));
        }
        map
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
    /// The default family: CSS custom properties for the fonts (`--font-body`,
    /// `--font-heading`, see [`crate::fonts::font_variables`]).
    pub font_family: Option<String>,
    /// Owner code for `<head>`: the project header, then the page's header/meta.
    pub head_code: String,
    /// Owner code at the end of `<body>`: the project footer.
    pub footer_code: String,
    /// Facebook pixel id (the conversion pixel), when configured.
    pub pixel_id: Option<String>,
    /// Whether a block plays an animation effect (the document then carries their runtime).
    #[serde(default)]
    pub effects: bool,
}

/// The base stylesheet of every page a visitor or the owner sees (published pages, pages the
/// edge renders, the editor's canvas and the owner's preview): no browser-default margin
/// around the page (an 8 px white frame otherwise) and a few sane defaults. It comes before
/// the blocks' own CSS, so a block can set anything it resets.
///
/// It stays small on purpose: owners' own blocks were laid out without it, so it resets only
/// what no layout wants (the body margin, text inflation on phones, media wider than the
/// screen) and leaves box sizing, line height and fonts to the blocks.
pub const BASE_CSS: &str = "html{-webkit-text-size-adjust:100%;text-size-adjust:100%}\
body{margin:0}img,video{max-width:100%;height:auto}";

/// [`BASE_CSS`] as a `<style>` element for a document's head.
pub fn base_style() -> String {
    format!("<style>{BASE_CSS}</style>")
}

/// The stylesheet and script that play block effects when a block scrolls into view; a
/// visitor who prefers reduced motion sees the blocks at once.
pub const EFFECTS_RUNTIME: &str = "<style>.vt-fx{transition:opacity .7s ease,transform .7s ease}\
.vt-fx.vt-fx-wait[data-effect~=fade-in]{opacity:0}\
.vt-fx.vt-fx-wait[data-effect~=enter-left]{transform:translateX(-48px)}\
.vt-fx.vt-fx-wait[data-effect~=enter-right]{transform:translateX(48px)}\
.vt-fx.vt-fx-wait[data-effect~=enter-top]{transform:translateY(-48px)}\
.vt-fx.vt-fx-wait[data-effect~=enter-bottom]{transform:translateY(48px)}\
.vt-fx.vt-fx-wait[data-effect~=zoom-in]{transform:scale(.85)}\
.vt-fx.vt-fx-wait[data-effect~=rotate-left]{transform:rotate(-8deg)}\
.vt-fx.vt-fx-wait[data-effect~=rotate-right]{transform:rotate(8deg)}\
@media (prefers-reduced-motion:reduce){.vt-fx{transition:none}.vt-fx.vt-fx-wait{opacity:1;transform:none}}</style>\
<script>(function(){if(!('IntersectionObserver' in window))return;var o=new IntersectionObserver(function(es){es.forEach(function(e){if(e.isIntersecting){e.target.classList.remove('vt-fx-wait');o.unobserve(e.target)}})},{threshold:.15});\
function go(){document.querySelectorAll('.vt-fx').forEach(function(el){el.classList.add('vt-fx-wait');o.observe(el)})}\
if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',go);else go()})()</script>";

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
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n{}\n",
        escape(lang),
        escape(&parts.title),
        base_style()
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
        h.push_str(&crate::fonts::font_variables(family));
        h.push('\n');
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
    if parts.effects {
        h.push_str(EFFECTS_RUNTIME);
        h.push('\n');
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
            "<style>html{-webkit-text-size-adjust:100%;text-size-adjust:100%}body{margin:0}",
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

/// The fuzz target `template`'s invariant (see `fuzz/`), on generated inputs in every test
/// run: any block template (owner code) compiles or fails with an error, and rendering ends
/// within the fuel limit without panicking.
#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Templates made of MiniJinja syntax fragments, plus any text at all.
    fn templates() -> impl Strategy<Value = String> {
        prop_oneof![
            proptest::collection::vec(
                prop_oneof![
                    Just("{{ "),
                    Just(" }}"),
                    Just("{% for x in range(99999) %}"),
                    Just("{% endfor %}"),
                    Just("{% if "),
                    Just(" %}"),
                    Just("{% endif %}"),
                    Just("{% set a = "),
                    Just("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}"),
                    Just("site.name"),
                    Just("page"),
                    Just("post.field('x')"),
                    Just("x | background"),
                    Just("x | unit"),
                    Just("x | padding"),
                    Just("x | lines"),
                    Just("[1,2,3]"),
                    Just("'a' ~ 'b'"),
                    Just("<div>"),
                    Just("</div>"),
                    Just("{#"),
                    Just("#}"),
                    Just("x"),
                    Just("1"),
                    Just("("),
                    Just(")"),
                ],
                0..24,
            )
            .prop_map(|parts| parts.concat()),
            any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn any_template_compiles_or_fails_and_renders_within_its_fuel(template in templates()) {
            let blocks = vec![Block {
                uid: "prop".into(),
                template,
                ..Block::default()
            }];
            if let Ok(page) = CompiledPage::compile(&blocks) {
                let _ = page.render(&RenderContext::default());
            }
        }
    }
}
