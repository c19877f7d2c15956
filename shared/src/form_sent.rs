//! The confirmation a visitor sees after sending a published site's form, without JavaScript.
//!
//! A form posts to `/_forms`; the edge answers `303` to the page it came from with
//! [`SENT_PARAM`]`=1` added to its query ([`sent_location`]). Published pages are static
//! files, so the edge serves that page's own document with a confirmation injected at the
//! start of its `<body>` ([`inject`]): the visitor lands on the page they know, in the site's
//! style, with a `role="status"` message that screen readers announce, in the site's language
//! ([`message`]). The injection uses lol_html, Cloudflare's streaming HTML rewriter (already
//! used for templates), rather than string search, so comments, scripts or attributes that
//! contain `<body` cannot misplace it.

use crate::render::escape;

/// The query parameter that marks a page as "just sent" (`?enviado=1`).
pub const SENT_PARAM: &str = "enviado";

/// The confirmation in the site's language: English for `en…`, Portuguese otherwise (the
/// product's default language).
pub fn message(lang: &str) -> &'static str {
    if lang.to_ascii_lowercase().starts_with("en") {
        "Thank you! Your message was sent."
    } else {
        "Obrigado! Sua mensagem foi enviada."
    }
}

/// Whether a page's query string asks for the confirmation (`enviado=1`). Cheap when it does
/// not: the edge's hot path asks this of every request with a query.
pub fn is_sent(query: Option<&str>) -> bool {
    query.is_some_and(|q| {
        q.contains(SENT_PARAM)
            && url::form_urlencoded::parse(q.as_bytes()).any(|(k, v)| k == SENT_PARAM && v == "1")
    })
}

/// `page` (a same-site path with an optional query) with `enviado=1` in its query, once.
pub fn sent_location(page: &str) -> String {
    let (path, query) = page.split_once('?').unwrap_or((page, ""));
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in url::form_urlencoded::parse(query.as_bytes()) {
        if k != SENT_PARAM {
            out.append_pair(&k, &v);
        }
    }
    out.append_pair(SENT_PARAM, "1");
    format!("{path}?{}", out.finish())
}

/// The confirmation's markup: a visible, announced status box with inline style, so it reads
/// the same on any site whatever its stylesheet.
fn banner(lang: &str) -> String {
    format!(
        "<div role=\"status\" aria-live=\"polite\" class=\"vitrine-form-sent\" id=\"vitrine-form-sent\" \
         style=\"margin:0;padding:1rem;background:#e7f6ec;color:#14532d;border-bottom:2px solid #16a34a;\
         font:inherit;text-align:center\">{}</div>",
        escape(message(lang))
    )
}

/// `html` with the confirmation as the first thing in its `<body>`; `None` when the document
/// has no `<body>` element or cannot be rewritten (the caller serves the page as it is).
pub fn inject(html: &str, lang: &str) -> Option<String> {
    let banner = banner(lang);
    let done = std::cell::Cell::new(false);
    let out = lol_html::rewrite_str(
        html,
        lol_html::RewriteStrSettings {
            element_content_handlers: vec![lol_html::element!("body", |el| {
                if !done.replace(true) {
                    el.prepend(&banner, lol_html::html_content::ContentType::Html);
                }
                Ok(())
            })],
            ..lol_html::RewriteStrSettings::new()
        },
    )
    .ok()?;
    done.get().then_some(out)
}

/// A page of its own for the confirmation, for a document [`inject`] cannot take: the message
/// and a link back to `back` (a same-site path).
pub fn page(lang: &str, back: &str) -> String {
    let (lang, back_text) = if message(lang).starts_with("Thank") {
        ("en", "Back")
    } else {
        ("pt-BR", "Voltar")
    };
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>{msg}</title></head>\
         <body>{banner}<p style=\"text-align:center\"><a href=\"{back}\">{back_text}</a></p></body></html>",
        msg = escape(message(lang)),
        banner = banner(lang),
        back = escape(back),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_follows_the_site_language() {
        assert_eq!(message("en"), "Thank you! Your message was sent.");
        assert_eq!(message("en-US"), "Thank you! Your message was sent.");
        assert_eq!(message("pt-BR"), "Obrigado! Sua mensagem foi enviada.");
        assert_eq!(message(""), "Obrigado! Sua mensagem foi enviada.");
    }

    #[test]
    fn the_sent_flag_is_added_once_and_read_back() {
        assert_eq!(sent_location("/contato"), "/contato?enviado=1");
        assert_eq!(sent_location("/contato?x=1"), "/contato?x=1&enviado=1");
        assert_eq!(
            sent_location("/contato?enviado=1&x=a+b"),
            "/contato?x=a+b&enviado=1"
        );
        assert!(is_sent(Some("x=1&enviado=1")));
        assert!(!is_sent(Some("enviado=0")));
        assert!(!is_sent(Some("naoenviado=1")));
        assert!(!is_sent(None));
    }

    #[test]
    fn the_confirmation_opens_the_body_and_only_the_body() {
        let html = "<!doctype html><html><head><title>x</title><!-- <body> --></head>\
                    <body class=\"site\"><script>var s='<body>'</script><h1>Contato</h1></body></html>";
        let out = inject(html, "pt-BR").unwrap();
        assert!(
            out.contains("<body class=\"site\"><div role=\"status\""),
            "{out}"
        );
        assert_eq!(out.matches("role=\"status\"").count(), 1, "{out}");
        assert!(out.contains("<!-- <body> -->") && out.contains("var s='<body>'"));
        assert!(out.contains("Obrigado! Sua mensagem foi enviada."));
        assert_eq!(inject("<p>no body element</p>", "en"), None);
        let own = page("en", "/contato?a=\"b");
        assert!(own.contains("Thank you! Your message was sent."), "{own}");
        assert!(own.contains("href=\"/contato?a=&quot;b\""), "{own}");
    }
}
