//! Custom domains (spec 1 §4 "Domain", §7; DESIGN §3 "Custom domains and TLS", §4 "Tenant
//! isolation"): proving a domain, the pending state, and removing a domain.
//!
//! A domain is the project's once it is **proven and pointing**: `_vitrine-challenge.<domain>`
//! has a TXT record holding the project's token (`domain_token` in the project JSON), as
//! Vercel and Netlify ask, and the domain has an A/AAAA record for the platform's address or a
//! CNAME to its target. The TXT record is the proof of ownership: a record that merely points
//! here (one left dangling by a previous owner, or a wildcard) proves nothing about who asks.
//! The pointing is what makes the name serve here, and the edge checks it again before every
//! certificate order.
//!
//! A domain not verified yet is saved as **pending** (the project's `domain_check`), and the
//! server checks it again on its own with back-off ([`crate::domain_checks`]), so an owner
//! never has to come back and retype it once DNS has propagated. A pending domain reserves
//! nothing: the first project to prove it takes it, and every pending claim on it (and on its
//! `www.` twin) goes. A name and its `www.` twin are one unit: when another project holds
//! either, the answer is 409 `domain_in_use` before any lookup.
//!
//! **Server-owned:** `meta.verified`, `verifiedDomain` and `verifiedTimestamp` are set only by
//! a successful check; no request body writes them. The spec's answer to a check is text, so
//! the DNS outcomes are `text/plain`; what the caller got wrong before any lookup (unknown
//! project, invalid or taken domain, bad body) keeps the API's JSON error shape.

use anyhow::Context;
use axum::{
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use utoipa::ToSchema;
use vitrine_shared::{
    dns::{DnsCheck, Pointing, Proof, Verdict, Verification},
    domain::{challenge_name, challenge_value},
    store::{DOMAIN_UNIT_TAKEN, StoreError},
};

use crate::{
    auth::CurrentUser,
    authz::authorize_project,
    domain_checks::first_recheck,
    error::{ApiError, ApiJson, ApiPath, ErrorBody, Result},
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

/// Checks the domain's TXT proof and where it points. Proven and pointing here: the domain
/// becomes the project's verified domain (200). Otherwise it is saved as the project's pending
/// domain, which the server keeps checking on its own (422, or 503 when the DNS servers could
/// not be asked), unless it already is the project's verified domain, which stays as it was.
#[utoipa::path(post, path = "/api/dns-verify", tag = "projects", request_body = DnsVerify,
    responses(
        (status = 200, description = "Verified: says where the domain points", body = String, content_type = "text/plain"),
        (status = 404, body = ErrorBody),
        (status = 409, description = "domain_in_use: another project holds the domain or its www. twin", body = ErrorBody),
        (status = 422, description = "invalid domain (JSON), or the domain is not proven or does not point here yet: what was found and what to set; saved as pending (text)", body = String, content_type = "text/plain"),
        (status = 503, description = "The DNS servers could not be asked; saved as pending (text)", body = String, content_type = "text/plain"),
    ))]
pub async fn dns_verify(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<DnsVerify>,
) -> Result<Response> {
    authorize_project(&state, &user, req.project_id).await?;
    let domain = parse_domain(&state, &req.domain)?;
    let domain = domain.as_str();
    refuse_if_held_elsewhere(&state, domain, req.project_id).await?;
    let project = state.store.project_by_id(req.project_id).await?;
    let check = DnsCheck::from_settings(&state.settings).context("DNS check settings")?;
    let token = challenge_value(&project.uuid);
    let outcome = check.verify(domain, &token).await;
    let held = project.verified_domain.as_deref() == Some(domain);
    let (status, text) = answer(&check, domain, &token, &outcome, held);
    if outcome.verified() {
        // The unique unit still guards a race with another project proving it too.
        state
            .store
            .mark_domain_verified(req.project_id, domain)
            .await?;
    } else if !held {
        state
            .store
            .save_domain_claim(req.project_id, domain, first_recheck(&state.settings))
            .await?;
        state
            .store
            .record_domain_check(
                req.project_id,
                domain,
                &text,
                Some(first_recheck(&state.settings)),
            )
            .await?;
    }
    if let Some(cause) = outcome.unreachable() {
        tracing::warn!(domain, %cause, "DNS check could not reach the nameservers");
    }
    Ok((status, text).into_response())
}

/// 409 `domain_in_use` when a project other than `project_id` holds `domain` or its twin.
pub(crate) async fn refuse_if_held_elsewhere(
    state: &AppState,
    domain: &str,
    project_id: i64,
) -> Result<()> {
    match state.store.domain_holder(domain).await? {
        Some(holder) if holder != project_id => {
            Err(ApiError::from(StoreError::Conflict(DOMAIN_UNIT_TAKEN)))
        }
        _ => Ok(()),
    }
}

/// The status and the text for a check's outcome: where the domain points when it is
/// verified; else what was found, what to set, and that it waits as pending (`held`: it is
/// already this project's verified domain, which a failed re-check does not change).
pub(crate) fn answer(
    check: &DnsCheck,
    domain: &str,
    token: &str,
    outcome: &Verification,
    held: bool,
) -> (StatusCode, String) {
    if outcome.verified() {
        let text = match &outcome.pointing {
            Verdict::Points(Pointing::Address(ip)) => {
                format!("Domain verified: {domain} points to {ip}")
            }
            Verdict::Points(Pointing::Alias(alias)) => {
                format!("Domain verified: {domain} is an alias of {alias}")
            }
            _ => format!("Domain verified: {domain}"),
        };
        return (StatusCode::OK, text);
    }
    let after = if held {
        format!("{domain} stays verified for this project; nothing was changed.")
    } else {
        format!(
            "{domain} is saved as pending: we check it again on our own, and it starts \
             working as soon as both records are in place. DNS changes can take a while to \
             reach every server."
        )
    };
    if outcome.unreachable().is_some() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "The DNS servers could not be reached to check {domain}. {after} You can also \
                 try again in a few minutes."
            ),
        );
    }
    let address = check
        .addresses()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" or ");
    let target = check.cname_target();
    let record = challenge_name(domain);
    let mut found = Vec::new();
    let mut to_set = Vec::new();
    match &outcome.proof {
        Proof::Proven => found.push(format!("{record} holds this project's token.")),
        Proof::Missing => {
            found.push(format!("{record} has no TXT record yet."));
            to_set.push(format!("a TXT record {record} with the value {token}"));
        }
        Proof::Wrong(values) => {
            found.push(format!(
                "{record} has no TXT record with this project's token (found: {}).",
                values.join(", ")
            ));
            to_set.push(format!("a TXT record {record} with the value {token}"));
        }
        Proof::Unreachable(_) => {}
    }
    match &outcome.pointing {
        Verdict::Points(Pointing::Address(ip)) => found.push(format!("{domain} points to {ip}.")),
        Verdict::Points(Pointing::Alias(alias)) => {
            found.push(format!("{domain} is an alias of {alias}."))
        }
        Verdict::Elsewhere(values) => {
            found.push(format!(
                "{domain} does not point to {address} (found: {}).",
                values.join(", ")
            ));
            to_set.push(format!("an A record to {address} or a CNAME to {target}"));
        }
        Verdict::NoRecords => {
            found.push(format!("{domain} has no A, AAAA or CNAME record yet."));
            to_set.push(format!("an A record to {address} or a CNAME to {target}"));
        }
        Verdict::Unreachable(_) => {}
    }
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        format!(
            "{} Set {}. If a CDN proxy is used it must be off. {after}",
            found.join(" "),
            to_set.join(", and ")
        ),
    )
}

/// Removes the project's custom domain, its pending domain, its verification and its
/// certificates.
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

    fn outcome(proof: Proof, pointing: Verdict) -> Verification {
        Verification { proof, pointing }
    }

    const TOKEN: &str = "vitrine-verify=abc";

    #[test]
    fn every_outcome_says_what_was_found_and_what_to_set() {
        let c = check();
        let here = Verdict::Points(Pointing::Address("203.0.113.7".parse().unwrap()));
        let (status, text) = answer(
            &c,
            "shop.example",
            TOKEN,
            &outcome(Proof::Proven, here.clone()),
            false,
        );
        assert_eq!(status, StatusCode::OK);
        assert_eq!(text, "Domain verified: shop.example points to 203.0.113.7");

        // Pointing here without the proof (a dangling or wildcard record): not verified.
        let (status, text) = answer(
            &c,
            "shop.example",
            TOKEN,
            &outcome(Proof::Missing, here.clone()),
            false,
        );
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            text,
            "_vitrine-challenge.shop.example has no TXT record yet. shop.example points to \
             203.0.113.7. Set a TXT record _vitrine-challenge.shop.example with the value \
             vitrine-verify=abc. If a CDN proxy is used it must be off. shop.example is saved \
             as pending: we check it again on our own, and it starts working as soon as both \
             records are in place. DNS changes can take a while to reach every server."
        );
        assert!(!text.contains("verified:"));

        let (status, text) = answer(
            &c,
            "shop.example",
            TOKEN,
            &outcome(
                Proof::Wrong(vec!["vitrine-verify=other".into()]),
                Verdict::Elsewhere(vec!["198.51.100.9".into()]),
            ),
            false,
        );
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            text.starts_with(
                "_vitrine-challenge.shop.example has no TXT record with this project's token \
                 (found: vitrine-verify=other). shop.example does not point to 203.0.113.7 \
                 (found: 198.51.100.9). Set a TXT record _vitrine-challenge.shop.example with \
                 the value vitrine-verify=abc, and an A record to 203.0.113.7 or a CNAME to \
                 sites.example."
            ),
            "{text}"
        );

        let (status, text) = answer(
            &c,
            "shop.example",
            TOKEN,
            &outcome(Proof::Proven, Verdict::NoRecords),
            true,
        );
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            text.contains("holds this project's token")
                && text.contains("Set an A record to 203.0.113.7 or a CNAME to sites.example.")
                && text.ends_with(
                    "shop.example stays verified for this project; nothing was changed."
                ),
            "{text}"
        );

        let (status, text) = answer(
            &c,
            "shop.example",
            TOKEN,
            &outcome(Proof::Unreachable("timeout".into()), here),
            false,
        );
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            text.contains("could not be reached") && text.contains("saved as pending"),
            "{text}"
        );
        assert!(!text.contains("timeout"));
    }
}
