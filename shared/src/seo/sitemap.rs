//! `sitemap.xml` (the sitemaps.org protocol, 0.9): one `<url>` with `<loc>` and `<lastmod>` per
//! page and per collection item.
//!
//! **Bounded.** The protocol allows 50,000 URLs (and 50 MB) per file. A site's URLs are its
//! pages first, then its items in the order the store reads them. Up to [`MAX_URLS`] of them,
//! `/sitemap.xml` lists them all; past that (an account may hold 100,000 records) it is a
//! sitemap index ([`index_xml`]) naming `/sitemap-1.xml`, `/sitemap-2.xml`, … ([`file_path`]),
//! each listing the next [`MAX_URLS`] (the edge asks the store for that window's rows only),
//! at most [`MAX_FILES`] of them: URLs past 1,000,000 are not listed.

use chrono::{DateTime, SecondsFormat, Utc};

/// The most URLs one sitemap file lists (the protocol's limit).
pub const MAX_URLS: usize = 50_000;

/// The most sitemap files an index names.
pub const MAX_FILES: usize = 20;

/// The path of the `n`th sitemap file of an index (from 1).
pub fn file_path(n: usize) -> String {
    format!("/sitemap-{n}.xml")
}

/// The `n` of a path [`file_path`] made (`/sitemap-{n}.xml`, `n` from 1, without leading zeros).
pub fn file_number(path: &str) -> Option<usize> {
    let n = path.strip_prefix("/sitemap-")?.strip_suffix(".xml")?;
    if n.is_empty() || n.starts_with('0') || n.len() > 6 || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// How many files `urls` URLs take: 1 when they fit in one, else as many as they fill, at most
/// [`MAX_FILES`].
pub fn files_for(urls: usize) -> usize {
    urls.div_ceil(MAX_URLS).clamp(1, MAX_FILES)
}

/// A sitemap index naming the sitemap files at `locs` (absolute URLs).
pub fn index_xml(locs: &[String]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for loc in locs {
        out.push_str("<sitemap><loc>");
        out.push_str(&xml_escape(loc));
        out.push_str("</loc></sitemap>\n");
    }
    out.push_str("</sitemapindex>\n");
    out
}

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

    #[test]
    fn an_index_names_its_files_and_only_their_paths_are_files() {
        let doc = index_xml(&[
            "https://a.b/sitemap-1.xml".into(),
            "https://a.b/sitemap-2.xml".into(),
        ]);
        assert!(doc.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<sitemap><loc>https://a.b/sitemap-1.xml</loc></sitemap>\n<sitemap><loc>https://a.b/sitemap-2.xml</loc></sitemap>\n</sitemapindex>"), "{doc}");
        assert_eq!(file_number(&file_path(3)), Some(3));
        for bad in [
            "/sitemap-0.xml",
            "/sitemap-01.xml",
            "/sitemap-.xml",
            "/sitemap-1.xml.gz",
            "/sitemap-x.xml",
            "/sitemap-9999999.xml",
            "/sitemap.xml",
        ] {
            assert_eq!(file_number(bad), None, "{bad}");
        }
        assert_eq!(files_for(0), 1);
        assert_eq!(files_for(MAX_URLS), 1);
        assert_eq!(files_for(MAX_URLS + 1), 2);
        assert_eq!(files_for(usize::MAX / 2), MAX_FILES);
    }
}
