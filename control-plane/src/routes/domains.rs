//! Custom domains (spec 1 §4 "Domain", §7; DESIGN §3 "Custom domains and TLS"): the DNS check
//! that verifies a domain, and removing a domain.
//!
//! **Server-owned:** `meta.verified`, `verifiedDomain` and `verifiedTimestamp` are set only by
//! [`dns_verify`] after the domain was seen pointing at the platform; no request body writes them.
//! The spec's answer to a check is text, so the DNS outcomes are `text/plain`; what the caller
//! got wrong before any lookup (unknown project, invalid or taken domain, bad body) keeps the
//! API's JSON error shape.

use anyhow::Context;
use axum::{
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use utoipa::ToSchema;
use vitrine_shared::dns::{DnsCheck, Pointing, Verdict};

use crate::{
    auth::CurrentUser,
    authz::authorize_project,
    error::{ApiJson, ApiPath, ErrorBody, Result},
    routes::projects::{full_view, parse_domain},
    state::AppState,
    views::ProjectView,
};

/// The body of `POST /api/dns-verify`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct DnsVerify {
    pub project_id: i64,
    pub domain: String,
}

/// Resolves the domain and, when it points at the platform (an A/AAAA record for the platform
/// address or a CNAME to the platform target), records it as the project's verified domain.
#[utoipa::path(post, path = "/api/dns-verify", tag = "projects", request_body = DnsVerify,
    responses(
        (status = 200, description = "Verified: says where the domain points", body = String, content_type = "text/plain"),
        (status = 404, body = ErrorBody),
        (status = 409, description = "domain already in use", body = ErrorBody),
        (status = 422, description = "invalid domain (JSON), or the domain does not point here yet: what was found and what to set (text)", body = String, content_type = "text/plain"),
        (status = 503, description = "The DNS servers could not be asked", body = String, content_type = "text/plain"),
    ))]
pub async fn dns_verify(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<DnsVerify>,
) -> Result<Response> {
    authorize_project(&state, &user, req.project_id).await?;
    let domain = parse_domain(&state, &req.domain)?;
    state
        .store
        .ensure_domain_free(domain.as_str(), req.project_id)
        .await?;
    let check = DnsCheck::from_settings(&state.settings).context("DNS check settings")?;
    let verdict = check.check(domain.as_str()).await;
    let (status, text) = answer(&check, domain.as_str(), &verdict);
    if let Verdict::Points(_) = verdict {
        // The unique constraint still guards a race with another project verifying it too.
        state
            .store
            .mark_domain_verified(req.project_id, domain.as_str())
            .await?;
    }
    if let Verdict::Unreachable(cause) = &verdict {
        tracing::warn!(domain = domain.as_str(), %cause, "DNS check could not reach the nameservers");
    }
    Ok((status, text).into_response())
}

/// The status and the text for a check's outcome.
fn answer(check: &DnsCheck, domain: &str, verdict: &Verdict) -> (StatusCode, String) {
    let address = check
        .addresses()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" or ");
    let target = check.cname_target();
    let what_to_set = format!(
        "Set an A record to {address} or a CNAME to {target}. If a CDN proxy is used it must be off."
    );
    match verdict {
        Verdict::Points(Pointing::Address(ip)) => (
            StatusCode::OK,
            format!("Domain verified: {domain} points to {ip}"),
        ),
        Verdict::Points(Pointing::Alias(alias)) => (
            StatusCode::OK,
            format!("Domain verified: {domain} is an alias of {alias}"),
        ),
        Verdict::Elsewhere(found) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "{domain} does not point to {address} (found: {}). {what_to_set}",
                found.join(", ")
            ),
        ),
        Verdict::NoRecords => (
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "{domain} has no A, AAAA or CNAME record yet. {what_to_set} \
                 DNS changes can take a while to reach every server: try again in a few minutes."
            ),
        ),
        Verdict::Unreachable(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "The DNS servers could not be reached to check {domain}. Nothing was changed; \
                 please try again in a few minutes."
            ),
        ),
    }
}

/// Removes the project's custom domain, its verification and its certificates.
#[utoipa::path(post, path = "/api/remove-domain/{id}", tag = "projects",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ProjectView), (status = 404, body = ErrorBody)))]
pub async fn remove_domain(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<ProjectView>> {
    authorize_project(&state, &user, id).await?;
    state.store.remove_domain(id).await?;
    let project = state.store.project_by_id(id).await?;
    Ok(ApiJson(full_view(&state, &project).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_shared::Settings;

    fn check() -> DnsCheck {
        DnsCheck::from_settings(&Settings {
            public_ip: "203.0.113.7".into(),
            cname_target: Some("sites.example".into()),
            ..Settings::default()
        })
        .unwrap()
    }

    #[test]
    fn every_outcome_says_what_was_found_and_what_to_set() {
        let c = check();
        let (status, text) = answer(
            &c,
            "shop.example",
            &Verdict::Points(Pointing::Address("203.0.113.7".parse().unwrap())),
        );
        assert_eq!(status, StatusCode::OK);
        assert_eq!(text, "Domain verified: shop.example points to 203.0.113.7");
        let (status, text) = answer(
            &c,
            "shop.example",
            &Verdict::Elsewhere(vec!["198.51.100.9".into()]),
        );
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            text,
            "shop.example does not point to 203.0.113.7 (found: 198.51.100.9). Set an A record \
             to 203.0.113.7 or a CNAME to sites.example. If a CDN proxy is used it must be off."
        );
        let (status, text) = answer(&c, "shop.example", &Verdict::NoRecords);
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(text.contains("no A, AAAA or CNAME record") && text.contains("sites.example"));
        let (status, text) = answer(&c, "shop.example", &Verdict::Unreachable("timeout".into()));
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(text.contains("could not be reached") && !text.contains("timeout"));
    }
}
