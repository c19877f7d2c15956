//! `sitemap.xml` (the sitemaps.org protocol, 0.9): one `<url>` with `<loc>` and `<lastmod>` per
//! page and per collection item.
//!
//! **Bounded.** The protocol allows 50,000 URLs (and 50 MB) per file. A site's sitemap is one
//! file capped at [`MAX_URLS`]: its pages first, then its items in the order the store reads
//! them, until the cap (the edge asks the store for no more rows than fit). A site with more
//! items than that (an account may hold 100,000 records) lists the first 50,000; a sitemap
//! index was not worth a second cached file per site while no seeded site comes near it.

use chrono::{DateTime, SecondsFormat, Utc};

/// The most URLs one sitemap file lists (the protocol's limit).
pub const MAX_URLS: usize = 50_000;

/// One URL of a sitemap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The absolute URL.
    pub loc: String,
    pub lastmod: DateTime<Utc>,
}

/// Escapes text for XML element content.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// The sitemap document of `entries`, at most [`MAX_URLS`] of them.
pub fn xml(entries: &[Entry]) -> String {
    let mut out = String::with_capacity(64 + entries.len().min(MAX_URLS) * 110);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for e in entries.iter().take(MAX_URLS) {
        out.push_str("<url><loc>");
        out.push_str(&xml_escape(&e.loc));
        out.push_str("</loc><lastmod>");
        out.push_str(&e.lastmod.to_rfc3339_opts(SecondsFormat::Secs, true));
        out.push_str("</lastmod></url>\n");
    }
    out.push_str("</urlset>\n");
    out
}

/// A post's path on the site: `/{collection page slug}/{post slug}`, as the edge serves it.
pub fn item_path(page_slug: &str, post_slug: &str) -> String {
    format!("/{}/{}", page_slug.trim_matches('/'), post_slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sitemap_lists_escaped_urls_with_w3c_dates_and_stops_at_the_cap() {
        let t: DateTime<Utc> = "2026-11-29T10:00:00Z".parse().unwrap();
        let doc = xml(&[
            Entry {
                loc: "https://a.b/".into(),
                lastmod: t,
            },
            Entry {
                loc: "https://a.b/p/x?a=1&b=<2>".into(),
                lastmod: t,
            },
        ]);
        assert!(doc.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
        assert!(
            doc.contains(
                "<url><loc>https://a.b/</loc><lastmod>2026-11-29T10:00:00Z</lastmod></url>"
            ),
            "{doc}"
        );
        assert!(
            doc.contains("<loc>https://a.b/p/x?a=1&amp;b=&lt;2&gt;</loc>"),
            "{doc}"
        );
        let many: Vec<Entry> = (0..MAX_URLS + 5)
            .map(|i| Entry {
                loc: format!("https://a.b/{i}"),
                lastmod: t,
            })
            .collect();
        assert_eq!(xml(&many).matches("<url>").count(), MAX_URLS);
        assert_eq!(item_path("/produtos/", "bolo"), "/produtos/bolo");
    }
}
