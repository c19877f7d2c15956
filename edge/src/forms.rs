//! A site's `/_forms`: the one path a published site takes a `POST` on
//! (`docs/design.md#a-form-submission`).
//! This reads the request (its body within [`submissions::MAX_FORM_BYTES`], the page it came
//! from, the visitor's address behind a trusted load balancer), hands it to
//! [`submissions::Forms`], which checks, stores or spools it, and answers the way the form
//! asked: JSON for a script, else a `303` to the thank-you page or back to the form's page with
//! the confirmation, and a small page for a refusal. The page landed on after a form was sent
//! ([`sent_page`]) is made here too.

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::{
    HeaderMap, Method, StatusCode,
    header::{self, HeaderValue},
};
use vitrine_shared::{
    form_sent,
    manifest::{FormSettings, site_path},
    proxies::TrustedProxies,
};

use crate::{
    pages,
    request::{Visit, VisitBody},
    serve::{HTML, JSON, NO_STORE, Resp, head_if, respond},
    submissions::{self, Forms, Outcome, Refused},
};

/// Takes the form `v` posted (with `body`) and answers it (see the module docs).
/// `proxies`: the load balancers whose `X-Forwarded-For` names the visitor.
pub async fn post(forms: &Forms, proxies: &TrustedProxies, v: &Visit<'_>, body: VisitBody) -> Resp {
    let headers = v.headers;
    let wants_json = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains(JSON));
    if v.method != Method::POST {
        return pages::method_not_allowed("POST");
    }
    let page_url = referer_path(headers, v.host);
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let client = v.client(proxies);
    let user_agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let settings = &v.deploy.manifest.forms;
    let outcome = match read_form_body(body).await {
        Ok(body) => {
            forms
                .submit(submissions::Incoming {
                    project_id: v.site.project_id,
                    settings,
                    page_url: page_url.clone(),
                    content_type: content_type.as_deref(),
                    body,
                    client,
                    host: v.host,
                    user_agent: user_agent.as_deref(),
                })
                .await
        }
        Err(e) => Err(e),
    };
    answer(outcome, wants_json, settings, &page_url)
}

/// The answer to a form's outcome: JSON when the form asked for it (`wants_json`), else a
/// redirect or a small page; `page_url`: the page the form was posted from.
fn answer(
    outcome: Result<Outcome, Refused>,
    wants_json: bool,
    forms: &FormSettings,
    page_url: &str,
) -> Resp {
    let thank_you = forms.thank_you.as_deref().and_then(site_path);
    match outcome {
        Ok(_) if wants_json => respond(
            StatusCode::OK,
            JSON,
            NO_STORE,
            serde_json::json!({
                "ok": true,
                "message": form_sent::message(&forms.lang),
                "redirect": thank_you,
            })
            .to_string(),
        ),
        Ok(_) => {
            // The owner's thank-you page, else the form's own page with the confirmation;
            // both same-site paths, so the answer cannot send the visitor elsewhere.
            let to = thank_you
                .map(str::to_string)
                .unwrap_or_else(|| form_sent::sent_location(page_url));
            let mut r = respond(StatusCode::SEE_OTHER, HTML, NO_STORE, Bytes::new());
            if let Ok(v) = HeaderValue::from_str(&to) {
                r.headers_mut().insert(header::LOCATION, v);
            }
            r
        }
        Err(refused) => {
            let status = match &refused {
                Refused::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
                Refused::RateLimited(_) | Refused::SiteRateLimited(_) => {
                    StatusCode::TOO_MANY_REQUESTS
                }
                Refused::Unsupported(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
                Refused::Malformed | Refused::TooManyFields => StatusCode::BAD_REQUEST,
                Refused::Rejected => StatusCode::UNPROCESSABLE_ENTITY,
                Refused::SpoolFull | Refused::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            };
            let code = refused.code();
            let message = refused.to_string();
            let mut r = if wants_json {
                pages::json_error(status, code, &message)
            } else {
                respond(
                    status,
                    HTML,
                    NO_STORE,
                    format!(
                        "<!doctype html><html lang=\"pt-BR\"><meta charset=\"utf-8\"><title>Formulário</title><p>{}</p></html>",
                        vitrine_shared::render::escape(&message)
                    ),
                )
            };
            let retry_after = match refused {
                Refused::RateLimited(secs) | Refused::SiteRateLimited(secs) => Some(secs),
                Refused::SpoolFull => Some(60),
                _ => None,
            };
            if let Some(secs) = retry_after {
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(secs));
            }
            r
        }
    }
}

/// A page landed on after its form was sent: its own document with the confirmation injected,
/// or a small confirmation page when the document has no `<body>` (see [`form_sent`]). Never
/// cached: the same path without the flag is the page as published.
pub fn sent_page(v: &Visit<'_>, body: &[u8], path: &str) -> Resp {
    let lang = &v.deploy.manifest.forms.lang;
    let html = std::str::from_utf8(body)
        .ok()
        .and_then(|h| form_sent::inject(h, lang))
        .unwrap_or_else(|| form_sent::page(lang, path));
    head_if(v.method, respond(StatusCode::OK, HTML, NO_STORE, html))
}

/// The page a form was posted from, as a path on this host (so the 303 can never send the
/// visitor elsewhere); `/` when the Referer is missing or names another host.
fn referer_path(headers: &HeaderMap, host: &str) -> String {
    headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| url::Url::parse(r).ok())
        .filter(|u| u.host_str().is_some_and(|h| h.eq_ignore_ascii_case(host)))
        .map(|u| {
            let mut p = u.path().to_string();
            if let Some(q) = u.query() {
                p.push('?');
                p.push_str(q);
            }
            p
        })
        .filter(|p| site_path(p).is_some())
        .unwrap_or_else(|| "/".to_string())
}

/// Reads a form body of at most [`submissions::MAX_FORM_BYTES`]. A larger one is read on (and
/// dropped) up to [`DRAIN_LIMIT`] so the client, still sending, can read the 413 instead of
/// meeting a reset connection; past that the connection is simply closed.
async fn read_form_body(mut body: VisitBody) -> Result<Bytes, Refused> {
    let mut kept = Vec::new();
    let mut seen = 0usize;
    let drain = async {
        while let Some(frame) = body.frame().await {
            let Ok(frame) = frame else {
                return Err(Refused::Malformed);
            };
            if let Ok(data) = frame.into_data() {
                seen += data.len();
                if seen <= submissions::MAX_FORM_BYTES {
                    kept.extend_from_slice(&data);
                } else if seen > DRAIN_LIMIT {
                    break;
                }
            }
        }
        Ok(())
    };
    match tokio::time::timeout(DRAIN_TIME, drain).await {
        Ok(Ok(())) if seen <= submissions::MAX_FORM_BYTES => Ok(Bytes::from(kept)),
        Ok(Ok(())) => Err(Refused::TooLarge),
        Ok(Err(e)) => Err(e),
        Err(_elapsed) => Err(Refused::Malformed),
    }
}

/// How much of an oversized form body is read before answering 413.
const DRAIN_LIMIT: usize = 1024 * 1024;
/// How long a form body may take to arrive.
const DRAIN_TIME: std::time::Duration = std::time::Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_redirect_stays_on_the_site() {
        let mut h = HeaderMap::new();
        assert_eq!(referer_path(&h, "loja.localhost"), "/");
        h.insert(
            header::REFERER,
            HeaderValue::from_static("http://loja.localhost:8080/contato?x=1"),
        );
        assert_eq!(referer_path(&h, "loja.localhost"), "/contato?x=1");
        h.insert(
            header::REFERER,
            HeaderValue::from_static("http://evil.example/contato"),
        );
        assert_eq!(referer_path(&h, "loja.localhost"), "/");
    }
}
