//! The shipped library (`seed/blocks/`) and templates (`seed/templates/`) held to the rules of
//! `docs/blocks.md` that reading and rendering them does not enforce by itself: file names,
//! the shape of each variable's default value, scoped CSS and class prefixes, no ids, no
//! outside resources, forms that post to `/_forms` with their honeypot, the pages and records
//! of each template, and internal links that lead somewhere. `library` checks the blocks and
//! `templates` the templates; each test lists every problem it finds.
//!
//! Every block is rendered by the renderer itself (`vitrine_shared::render::CompiledPage`)
//! three ways: with its default values (database lists filled with sample records), bound to a
//! sample record (a collection page), and with every value emptied (lists empty, no record);
//! each render must be balanced HTML with no outside resource. `theme` checks that blocks take
//! their colours and fonts from the site's theme and show the site's identity.

use std::fmt::Display;

use serde_json::Value;

mod library;
mod markup;
mod template_identity;
mod templates;
mod theme;

const SEED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/seed");

/// The shipped template files (`seed/templates/*.json`), sorted.
fn template_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(std::path::Path::new(SEED).join("templates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// Problems found so far, each prefixed with where it is.
#[derive(Default)]
struct Findings(Vec<String>);

impl Findings {
    fn add(&mut self, place: &str, problem: impl Display) {
        self.0.push(format!("{place}: {problem}"));
    }

    fn assert_none(self) {
        assert!(
            self.0.is_empty(),
            "{} problems:\n  - {}",
            self.0.len(),
            self.0.join("\n  - ")
        );
    }
}

/// `text` without the SVG and XLink namespace declarations (the only `http://` allowed).
fn without_svg_namespaces(text: &str) -> String {
    let mut out = text.to_string();
    for attr in ["xmlns=", "xmlns:xlink="] {
        for quote in ["\"", "'", "\\\"", "%22", "%27"] {
            for url in ["http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"] {
                out = out.replace(&format!("{attr}{quote}{url}"), "");
            }
        }
    }
    out
}

/// Outside resources: an `http(s)://` address (SVG namespaces aside), a protocol-relative URL
/// in `src`, `href`, `action` or `url(…)`, a `<link>` or an `@import`.
fn check_external(place: &str, text: &str, found: &mut Findings) {
    let stripped = without_svg_namespaces(text);
    let low = stripped.to_lowercase();
    for scheme in ["http://", "https://"] {
        if let Some(i) = low.find(scheme) {
            let near: String = low[i.saturating_sub(30).min(i)..]
                .chars()
                .take(70)
                .collect();
            found.add(place, format!("external URL near {near:?}"));
        }
    }
    let relative = ["src=", "href=", "action="].iter().any(|attr| {
        low.match_indices(attr).any(|(i, _)| {
            let rest = &low[i + attr.len()..];
            let rest = rest.strip_prefix('\\').unwrap_or(rest);
            rest.strip_prefix(['"', '\''])
                .is_some_and(|r| r.starts_with("//"))
        })
    }) || low.match_indices("url(").any(|(i, _)| {
        let rest = low[i + 4..].trim_start();
        rest.strip_prefix(['"', '\''])
            .unwrap_or(rest)
            .starts_with("//")
    });
    if relative {
        found.add(place, "protocol-relative URL");
    }
    if low.contains("<link") || low.contains("@import") {
        found.add(place, "<link> or @import not allowed");
    }
}

/// Every form posts to `/_forms` with a hidden `_subject`, a `_gotcha` honeypot styled
/// `display:none` and a submit button.
fn check_forms(place: &str, html: &str, found: &mut Findings) {
    let mut rest = html;
    while let Some(start) = rest.find("<form") {
        let Some(len) = rest[start..].find("</form>") else {
            found.add(place, "a form is not closed");
            return;
        };
        let form = &rest[start..start + len];
        rest = &rest[start + len..];
        if !form.contains("action=\"/_forms\"") || !form.contains("method=\"post\"") {
            found.add(place, "form must post to /_forms");
        }
        let inputs: Vec<&str> = form
            .match_indices("<input")
            .map(|(i, _)| &form[i..i + form[i..].find('>').unwrap_or(form.len() - i)])
            .collect();
        if !inputs
            .iter()
            .any(|t| t.contains("type=\"hidden\"") && t.contains("name=\"_subject\""))
        {
            found.add(place, "form lacks hidden _subject");
        }
        if !inputs
            .iter()
            .any(|t| t.contains("name=\"_gotcha\"") && t.replace(' ', "").contains("display:none"))
        {
            found.add(place, "form lacks _gotcha honeypot styled display:none");
        }
        if !form.contains("type=\"submit\"") {
            found.add(place, "form lacks a submit button");
        }
    }
}

/// A string value of `v` under `key`.
fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}
