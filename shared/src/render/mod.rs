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
//! - `site`: `{name, slug, lang, pages, menu, identity, theme, year}` (`menu`: the site menu,
//!   see `crate::sections`; `identity` and `theme`: see `crate::identity`, `crate::theme`;
//!   `name` is the identity's name), `page`: `{name, slug}`.
//!
//! This module compiles and runs the blocks' templates (the environment, its filters and
//! tests, the output budget); a block as a page stores it is in [`block`], the values a
//! block's variables give its template in [`vars`], the live data of one render in
//! [`context`], and the HTML document around the blocks in [`document`].

mod block;
mod context;
mod document;
mod vars;

use std::collections::BTreeMap;

use minijinja::{AutoEscape, Environment, Value};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use block::block_label;
use vars::var_value;

pub use block::{Block, DbList};
pub use context::{MenuItem, PostView, RenderContext};
pub use document::{
    BASE_CSS, DocumentParts, EFFECTS_RUNTIME, base_style, document, escape, json_ld_script,
    og_locale,
};

/// Instructions one render may spend: plenty for real pages, a stop for runaway loops.
pub const FUEL: u64 = 200_000;

/// Bytes of HTML one page render may write (all its blocks together). The writer stops the
/// render when it would pass this, so an oversized page is never held in memory whole.
pub const MAX_OUTPUT_BYTES: usize = 5 * 1024 * 1024;

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
    /// The render sandbox's CPU time limit (`RENDER_CPU_MS`), as the worker measured it.
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
            Exceeded::Time => "the template used more CPU time than a render may",
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod properties;

#[cfg(test)]
mod site_tests;
