//! The edge's own answers, for when there is no site or the site has nothing of its own to
//! say: the platform's 404, "site not published", a malformed request, the database outage's
//! 503, a site's default 404 and 500 pages, `405`, `414`, and the JSON errors of the paths a
//! site's code calls (`docs/design.md#interfaces`). Each is one call that builds the whole
//! response.

use hyper::{
    StatusCode,
    header::{self, HeaderValue},
};

use crate::serve::{HTML, JSON, NO_STORE, Resp, TEXT, respond};

/// `{"error": code, "message": text}` with a 4xx/5xx status (`docs/design.md#interfaces`).
pub fn json_error(status: StatusCode, code: &str, message: &str) -> Resp {
    let body = serde_json::json!({ "error": code, "message": message }).to_string();
    respond(status, JSON, NO_STORE, body)
}

fn page(title: &str, pt: &str, en: &str) -> String {
    format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title><style>body{{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f6f5f2;color:#222}}main{{text-align:center;padding:2rem}}h1{{font-size:1.6rem}}</style></head><body><main><h1>{title}</h1><p>{pt}</p><p lang=\"en\">{en}</p></main></body></html>"
    )
}

/// The platform's page for a host that serves no site.
pub const NOT_FOUND_PAGE: &str = "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Site não encontrado</title><style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f6f5f2;color:#222}main{text-align:center;padding:2rem}h1{font-size:1.6rem}</style></head><body><main><h1>Site não encontrado</h1><p>Não há nenhum site publicado neste endereço.</p><p lang=\"en\">There is no published site at this address.</p></main></body></html>";

pub fn platform_not_found() -> Resp {
    respond(StatusCode::NOT_FOUND, HTML, NO_STORE, NOT_FOUND_PAGE)
}

/// A known project that is not published (never published, or taken down).
pub fn not_published() -> Resp {
    respond(
        StatusCode::NOT_FOUND,
        HTML,
        NO_STORE,
        page(
            "Site não publicado",
            "Este site existe, mas ainda não foi publicado (ou foi retirado do ar pelo dono).",
            "This site exists but is not published.",
        ),
    )
}

pub fn bad_request(pt: &str, en: &str) -> Resp {
    respond(
        StatusCode::BAD_REQUEST,
        HTML,
        NO_STORE,
        page("Pedido inválido", pt, en),
    )
}

/// The database is unreachable and nothing for this request was cached.
pub fn unavailable() -> Resp {
    let mut r = respond(
        StatusCode::SERVICE_UNAVAILABLE,
        HTML,
        NO_STORE,
        page(
            "Site temporariamente indisponível",
            "Tente de novo em instantes.",
            "Temporarily unavailable, please try again shortly.",
        ),
    );
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    r
}

/// A visitor who has caused their share of uncached page renders this minute
/// (`EDGE_RENDER_RATE_PER_MINUTE`): 429, for `wait` seconds.
pub fn too_many_renders(wait: u64) -> Resp {
    let mut r = respond(
        StatusCode::TOO_MANY_REQUESTS,
        HTML,
        NO_STORE,
        page(
            "Muitas páginas de uma vez",
            "Você abriu muitas páginas novas em pouco tempo. Tente de novo em instantes.",
            "Too many new pages at once; please try again shortly.",
        ),
    );
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(wait.max(1)));
    r
}

/// The site's 404 (for `404`) or 500 (any other status) when it published none, naming the
/// site by its identity's name (`site_name`, escaped) with a link to its home page.
pub fn default_site_page(status: StatusCode, site_name: &str) -> String {
    let name = vitrine_shared::render::escape(site_name.trim());
    let (title, pt, en) = if status == StatusCode::NOT_FOUND {
        (
            "Página não encontrada",
            "A página que você procura não existe.",
            "The page you are looking for does not exist.",
        )
    } else {
        (
            "Erro no site",
            "Esta página não pôde ser exibida.",
            "This page could not be shown.",
        )
    };
    if name.is_empty() {
        return page(title, pt, en);
    }
    format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{title} | {name}</title><meta property=\"og:site_name\" content=\"{name}\"><style>body{{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f6f5f2;color:#222}}main{{text-align:center;padding:2rem}}h1{{font-size:1.6rem}}a{{color:inherit}}</style></head><body><main><p>{name}</p><h1>{title}</h1><p>{pt}</p><p><a href=\"/\">Voltar para a página inicial de {name}</a></p><p lang=\"en\">{en}</p></main></body></html>"
    )
}

/// A request path or query longer than the edge looks at
/// ([`crate::request::MAX_PATH`], [`crate::request::MAX_QUERY`]).
pub fn uri_too_long() -> Resp {
    respond(StatusCode::URI_TOO_LONG, HTML, NO_STORE, "URI Too Long")
}

/// `405` naming the methods the path takes.
pub fn method_not_allowed(allow: &'static str) -> Resp {
    let mut r = respond(
        StatusCode::METHOD_NOT_ALLOWED,
        TEXT,
        NO_STORE,
        "Method Not Allowed",
    );
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allow));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_404_names_the_site_and_links_home() {
        let html = default_site_page(StatusCode::NOT_FOUND, "Doces <da> Bruna");
        assert!(html.contains("<title>Página não encontrada | Doces &lt;da&gt; Bruna</title>"));
        assert!(
            html.contains(
                "<a href=\"/\">Voltar para a página inicial de Doces &lt;da&gt; Bruna</a>"
            )
        );
        assert!(!html.contains("<da>"));
        let unnamed = default_site_page(StatusCode::INTERNAL_SERVER_ERROR, " ");
        assert!(unnamed.contains("<title>Erro no site</title>"));
    }
}
