//! Rich text and stored HTML: the sanitiser (ammonia's allow-list), and rich text and form
//! submissions read back as plain text.

/// Untrusted HTML (rich text, form submissions) reduced to ammonia's allow-list: no scripts,
/// event handlers, styles or `javascript:` links survive.
pub fn sanitize_html(html: &str) -> String {
    ammonia::clean(html)
}

/// The text of rich text: markup gone, paragraphs and line breaks as new lines, entities as
/// the characters they stand for (`a &amp; b` is `a & b`).
///
/// ammonia parses the HTML as browsers do and writes it back with only the block tags kept,
/// bare (no attributes), and only `&`, `<`, `>` and no-break spaces escaped; that normal form
/// is what makes the tags and the four escapes safe to take apart by plain replacement.
pub fn html_to_text(html: &str) -> String {
    const BLOCKS: [&str; 11] = [
        "p",
        "div",
        "li",
        "tr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
    ];
    let normal = ammonia::Builder::empty()
        .tags(BLOCKS.iter().copied().chain(["br"]).collect())
        .clean_content_tags(["script", "style"].into_iter().collect())
        .clean(html)
        .to_string();
    let mut text = normal.replace("<br>", "\n");
    for tag in BLOCKS {
        text = text
            .replace(&format!("<{tag}>"), "")
            .replace(&format!("</{tag}>"), "\n");
    }
    unescape_normal(text.trim_end_matches('\n'))
}

/// Text of ammonia's normal form with its only escapes (`&lt;`, `&gt;`, no-break spaces,
/// `&amp;`, the last one last) turned back into characters.
fn unescape_normal(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The fields of a stored form submission (`<dl><dt>name</dt><dd>value</dd>…</dl>`, as the
/// edge writes it) as (name, value) text in order, line breaks in values kept. The same
/// method as [`html_to_text`]: ammonia's normal form first (only `dt`, `dd` and `br`, bare),
/// which makes splitting by those tags safe; a name or value that contained a tag's text
/// holds it escaped.
pub fn submission_fields(html: &str) -> Vec<(String, String)> {
    let normal = ammonia::Builder::empty()
        .tags(["dt", "dd", "br"].into_iter().collect())
        .clean_content_tags(["script", "style"].into_iter().collect())
        .clean(html)
        .to_string();
    normal
        .split("<dt>")
        .skip(1)
        .filter_map(|part| {
            let (name, rest) = part.split_once("</dt>")?;
            let value = rest
                .split_once("<dd>")
                .and_then(|(_, v)| v.split_once("</dd>"))
                .map_or("", |(v, _)| v);
            Some((
                unescape_normal(name),
                unescape_normal(&value.replace("<br>", "\n")),
            ))
        })
        .collect()
}
