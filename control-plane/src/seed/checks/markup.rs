//! Reading markup without a parser, as the checks need it: the tags of rendered HTML (to find
//! unbalanced elements and ids), the first element of a template with its attributes, and the
//! selectors of a stylesheet.

use std::collections::HashMap;

/// Elements that have no end tag (SVG's shapes are written self-closed or not at all).
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr", "path", "circle", "rect", "ellipse", "line", "polyline", "polygon", "stop", "use",
];

/// The SVG elements that may carry an `id` (gradients, clip paths and the like are referred to
/// by id); any other id would be repeated when a block appears twice on a page.
pub(super) const SVG_ID_OK: &[&str] = &[
    "lineargradient",
    "radialgradient",
    "clippath",
    "pattern",
    "mask",
    "filter",
    "symbol",
    "title",
];

/// One tag of an HTML text: its lower-cased name, whether it ends an element, whether it is
/// written self-closed, and its attributes' raw text.
pub(super) struct Tag<'a> {
    pub(super) name: String,
    pub(super) end: bool,
    pub(super) self_closed: bool,
    pub(super) attrs: &'a str,
}

/// The tags of `html` in order (comments skipped; the contents of `script` and `style` are
/// text). Quotes in attribute values are respected.
pub(super) fn tags(html: &str) -> Vec<Tag<'_>> {
    let mut out = Vec::new();
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(off) = html[i..].find('<') {
        let start = i + off;
        if html[start..].starts_with("<!--") {
            i = html[start..]
                .find("-->")
                .map_or(html.len(), |e| start + e + 3);
            continue;
        }
        let end = bytes.get(start + 1) == Some(&b'/');
        let name_start = start + 1 + usize::from(end);
        let name_len = html[name_start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(html.len() - name_start);
        if name_len == 0 || !bytes[name_start].is_ascii_alphabetic() {
            i = start + 1;
            continue;
        }
        let name = html[name_start..name_start + name_len].to_ascii_lowercase();
        let mut j = name_start + name_len;
        let mut quote = None;
        while j < bytes.len() {
            match (quote, bytes[j]) {
                (None, b'"' | b'\'') => quote = Some(bytes[j]),
                (Some(q), c) if c == q => quote = None,
                (None, b'>') => break,
                _ => {}
            }
            j += 1;
        }
        let attrs = &html[name_start + name_len..j.min(html.len())];
        let self_closed = attrs.trim_end().ends_with('/');
        i = (j + 1).min(html.len());
        if !end && (name == "script" || name == "style") {
            let close = format!("</{name}");
            i = html[i..].find(&close).map_or(html.len(), |e| i + e);
        }
        out.push(Tag {
            name,
            end,
            self_closed,
            attrs,
        });
    }
    out
}

/// Whether `attrs` (a tag's raw attribute text) holds the attribute `name`.
pub(super) fn has_attr(attrs: &str, name: &str) -> bool {
    attrs.match_indices(name).any(|(i, _)| {
        let before = attrs[..i].chars().next_back();
        let after = attrs[i + name.len()..].chars().next();
        before.is_some_and(char::is_whitespace)
            && after.is_none_or(|c| c == '=' || c.is_whitespace() || c == '/')
    })
}

/// What is wrong with rendered HTML: images without `alt`, elements closed out of order,
/// stray end tags, elements never closed (`p` and `li` may be left open, as HTML allows).
pub(super) fn html_problems(html: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    for tag in tags(html) {
        if !tag.end && tag.name == "img" && !has_attr(tag.attrs, "alt") {
            problems.push("<img> without alt".to_string());
        }
        if VOID.contains(&tag.name.as_str()) || (!tag.end && tag.self_closed) {
            continue;
        }
        if !tag.end {
            stack.push(tag.name);
        } else if stack.last() == Some(&tag.name) {
            stack.pop();
        } else if stack.contains(&tag.name) {
            while let Some(open) = stack.pop() {
                if open == tag.name {
                    break;
                }
                problems.push(format!("<{open}> not closed before </{}>", tag.name));
            }
        } else {
            problems.push(format!("stray </{}>", tag.name));
        }
    }
    problems.extend(
        stack
            .into_iter()
            .filter(|t| t != "p" && t != "li")
            .map(|t| format!("<{t}> never closed")),
    );
    problems
}

/// The selectors of a stylesheet (at-rule preludes and keyframe steps left out).
pub(super) fn css_selectors(css: &str) -> Vec<String> {
    let mut text = String::new();
    let mut rest = css;
    while let Some(i) = rest.find("/*") {
        text.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |e| &rest[i + e + 2..]);
    }
    text.push_str(rest);
    let mut out = Vec::new();
    let mut buf = String::new();
    for ch in text.chars() {
        match ch {
            '{' => {
                let prelude = buf.trim();
                if !prelude.starts_with('@') {
                    out.extend(prelude.split(',').map(|s| s.trim().to_string()));
                }
                buf.clear();
            }
            '}' | ';' => buf.clear(),
            c => buf.push(c),
        }
    }
    out.retain(|s| {
        !s.is_empty()
            && s != "from"
            && s != "to"
            && !(s.ends_with('%') && s[..s.len() - 1].chars().all(|c| c.is_ascii_digit()))
    });
    out
}

/// An element's attributes: name → (the quote around the value, or a space, and the value).
pub(super) type Attributes = HashMap<String, (char, String)>;

/// The first element of a template: its tag name and its attributes.
pub(super) fn first_element(template: &str) -> Result<(String, Attributes), String> {
    let t = template.trim_start();
    let rest = t
        .strip_prefix('<')
        .filter(|r| r.starts_with(|c: char| c.is_ascii_alphabetic()))
        .ok_or("the template does not start with an element")?;
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(rest.len());
    let tag = rest[..name_len].to_ascii_lowercase();
    let mut s = &rest[name_len..];
    let mut attrs = HashMap::new();
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return Err("first element is not closed".into());
        }
        if s.starts_with('>') || s.starts_with("/>") {
            return Ok((tag, attrs));
        }
        let n = s
            .find(|c: char| c.is_whitespace() || c == '=' || c == '>' || c == '/')
            .unwrap_or(s.len());
        if n == 0 {
            return Err(format!(
                "cannot parse attributes near {:?}",
                &s[..s.len().min(30)]
            ));
        }
        let name = s[..n].to_ascii_lowercase();
        s = s[n..].trim_start();
        let Some(after) = s.strip_prefix('=') else {
            attrs.insert(name, (' ', String::new()));
            continue;
        };
        s = after.trim_start();
        match s.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let end = s[1..]
                    .find(q)
                    .ok_or_else(|| format!("unterminated {name} attribute"))?;
                attrs.insert(name, (q, s[1..1 + end].to_string()));
                s = &s[end + 2..];
            }
            _ => {
                let end = s
                    .find(|c: char| c.is_whitespace() || c == '>')
                    .unwrap_or(s.len());
                attrs.insert(name, (' ', s[..end].to_string()));
                s = &s[end..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::checks::{Findings, check_external, markup::SVG_ID_OK};

    #[test]
    fn the_html_check_finds_unclosed_stray_and_unlabelled_elements() {
        assert_eq!(
            html_problems("<div><img src=\"a.png\"><span></div></em><section>"),
            [
                "<img> without alt",
                "<span> not closed before </div>",
                "stray </em>",
                "<section> never closed",
            ]
        );
        let fine = "<ul><li>a</li><li>b</li></ul><p>c<br/><svg><path d=\"M0 0\"/></svg><img alt=\"\" src=\"x\">\
                    <!-- <div> --><script>if (a < b) {}</script>";
        assert!(html_problems(fine).is_empty(), "{:?}", html_problems(fine));
    }

    #[test]
    fn ids_css_scopes_and_outside_resources_are_found() {
        let with_id = |html: &str| {
            tags(html)
                .into_iter()
                .any(|t| !t.end && has_attr(t.attrs, "id") && !SVG_ID_OK.contains(&t.name.as_str()))
        };
        assert!(with_id("<div class=\"a\" id=\"x\"></div>"));
        assert!(!with_id(
            "<svg><linearGradient id=\"g\"></linearGradient></svg><a data-id=\"1\">"
        ));
        assert_eq!(
            css_selectors(
                "/* a{} */ .vt-a, .vt-a p{x:y} @media (x){.vt-a b{}} @keyframes k{from{} 50%{}}"
            ),
            [".vt-a", ".vt-a p", ".vt-a b"]
        );
        let mut found = Findings::default();
        check_external(
            "svg",
            r#"<svg xmlns="http://www.w3.org/2000/svg"></svg>"#,
            &mut found,
        );
        assert!(found.0.is_empty());
        for bad in [
            "<img src=\"https://x.test/a.png\">",
            "<script src='//cdn.test/a.js'>",
            "background:url( //x.test/a.png)",
            "@import 'a.css';",
        ] {
            check_external("bad", bad, &mut found);
        }
        assert_eq!(found.0.len(), 4, "{:?}", found.0);
    }
}
