//! What a published site tells search engines and link previews (issue 44): its canonical
//! address, `robots.txt`, `sitemap.xml` ([`sitemap`]), JSON-LD structured data ([`jsonld`]),
//! its favicon ([`favicon`]) and its share cards ([`card`]). Pure functions: publishing and the
//! edge feed them what they read.
//!
//! **The canonical address** of a site is its verified custom domain over HTTPS when it has
//! one, else its preview address (`{slug}.{platform domain}`). Pages built at publish time name
//! the address of that moment; pages and files the edge makes (collection items, the sitemap,
//! `robots.txt`) name the address of the moment they are made, so a domain verified after a
//! publish shows in those at once and in the static pages at the next publish.

pub mod card;
pub mod card_source;
pub mod favicon;
pub mod jsonld;
pub mod sitemap;

/// The most bytes an owner's `robots.txt` may hold. Google reads the first 500 KiB; a small
/// business's rules fit in a few lines, and the text travels in every manifest.
pub const MAX_ROBOTS_BYTES: usize = 8 * 1024;

/// Why an owner's `robots.txt` was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BadRobots {
    #[error("robots.txt must be at most {MAX_ROBOTS_BYTES} bytes")]
    TooLarge,
    /// A control character other than tab and line breaks (a NUL, an escape…).
    #[error("robots.txt must be plain text lines")]
    NotText,
}

/// Checks an owner's `robots.txt`: plain text lines, at most [`MAX_ROBOTS_BYTES`].
pub fn check_robots(text: &str) -> Result<(), BadRobots> {
    if text.len() > MAX_ROBOTS_BYTES {
        return Err(BadRobots::TooLarge);
    }
    if text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err(BadRobots::NotText);
    }
    Ok(())
}

/// `base` (`https://loja.example.com`) and a site path (`/sobre`) as one absolute URL.
pub fn absolute(base: &str, path: &str) -> String {
    let base = base.trim_end_matches('/');
    if path.starts_with("http://") || path.starts_with("https://") {
        return path.to_string();
    }
    if path.is_empty() || path == "/" {
        return format!("{base}/");
    }
    if path.starts_with('/') {
        format!("{base}{path}")
    } else {
        format!("{base}/{path}")
    }
}

/// The `robots.txt` a site answers: the owner's text when they wrote one, else one that lets
/// every crawler in; either way naming the sitemap (unless the owner's text names one).
pub fn robots(owner: Option<&str>, base: &str) -> String {
    let sitemap = format!("Sitemap: {}\n", absolute(base, "/sitemap.xml"));
    match owner.map(str::trim).filter(|t| !t.is_empty()) {
        Some(text) => {
            let names_one = text
                .lines()
                .any(|l| l.trim_start().to_ascii_lowercase().starts_with("sitemap:"));
            let mut out = text.replace("\r\n", "\n");
            out.push('\n');
            if !names_one {
                out.push('\n');
                out.push_str(&sitemap);
            }
            out
        }
        None => format!("User-agent: *\nAllow: /\n\n{sitemap}"),
    }
}

/// The `robots.txt` of a preview address whose project has a verified domain: nothing there is
/// to be indexed (the pages are the domain's).
pub const NOINDEX_ROBOTS: &str = "User-agent: *\nDisallow: /\n";

/// The longest item description written in a page's `description` tags, in characters
/// (what search results and link previews show before cutting it themselves).
pub const DESCRIPTION_CHARS: usize = 160;

/// A collection item's own description, for its page's `description`, `og:description` and
/// `twitter:description`: its first long text (a `textarea`, or a `wysiwyg` field read as text,
/// markup gone: `crate::fields::html_to_text`), whitespace folded to single spaces and cut at
/// a word to at most [`DESCRIPTION_CHARS`] characters, with `…`. Empty when it has none (the
/// page's own description is kept then: a short `text` field is a flavour or a code, rarely a
/// description).
pub fn item_description(
    record: &crate::list_query::DbRecord,
    fields: &[crate::store::Field],
) -> String {
    let value = |kinds: &[&str]| {
        fields
            .iter()
            .filter(|f| kinds.contains(&f.kind.as_str()))
            .find_map(|f| {
                let v = record.fields.get(&f.slug)?.as_str()?;
                let text = if f.kind == "wysiwyg" {
                    crate::fields::html_to_text(v)
                } else {
                    v.to_string()
                };
                let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
                (!folded.is_empty()).then_some(folded)
            })
    };
    let text = value(&["textarea", "wysiwyg"]).unwrap_or_default();
    if text.chars().count() <= DESCRIPTION_CHARS {
        return text;
    }
    let cut: String = text.chars().take(DESCRIPTION_CHARS - 1).collect();
    let at_word = match cut.rfind(' ') {
        Some(i) if i > cut.len() / 2 => &cut[..i],
        _ => &cut,
    };
    format!("{}…", at_word.trim_end_matches([',', ';', ':', '.', ' ']))
}

/// The Open Graph locale of a site's language (the document's: `crate::render::og_locale`).
pub use crate::render::og_locale;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_default_allows_crawling_and_names_the_absolute_sitemap() {
        let r = robots(None, "https://loja.example.com/");
        assert_eq!(
            r,
            "User-agent: *\nAllow: /\n\nSitemap: https://loja.example.com/sitemap.xml\n"
        );
        assert_eq!(
            robots(Some("  \n"), "https://a.b"),
            robots(None, "https://a.b")
        );
    }

    #[test]
    fn the_owners_robots_is_kept_and_given_the_sitemap_unless_it_names_one() {
        let r = robots(Some("User-agent: *\r\nDisallow: /rascunhos"), "https://a.b");
        assert_eq!(
            r,
            "User-agent: *\nDisallow: /rascunhos\n\nSitemap: https://a.b/sitemap.xml\n"
        );
        let own = "User-agent: *\nSITEMAP: https://a.b/outro.xml";
        assert_eq!(robots(Some(own), "https://a.b"), format!("{own}\n"));
    }

    #[test]
    fn robots_text_is_checked_for_size_and_control_characters() {
        assert_eq!(check_robots("User-agent: *\n\tDisallow: /x\r\n"), Ok(()));
        assert_eq!(check_robots("a\0b"), Err(BadRobots::NotText));
        assert_eq!(check_robots("a\u{1b}[31m"), Err(BadRobots::NotText));
        let big = "x".repeat(MAX_ROBOTS_BYTES + 1);
        assert_eq!(check_robots(&big), Err(BadRobots::TooLarge));
        assert_eq!(check_robots(&big[1..]), Ok(()));
    }

    #[test]
    fn absolute_urls_and_locales() {
        assert_eq!(absolute("https://a.b/", "/"), "https://a.b/");
        assert_eq!(absolute("https://a.b", "/x/y"), "https://a.b/x/y");
        assert_eq!(absolute("https://a.b", "x"), "https://a.b/x");
        assert_eq!(
            absolute("https://a.b", "https://c.d/i.png"),
            "https://c.d/i.png"
        );
        assert_eq!(og_locale("pt-BR"), "pt_BR");
        assert_eq!(og_locale("en"), "en_US");
    }
}
