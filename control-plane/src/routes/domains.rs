//! Custom domains (spec 1 §4 "Domain", §7; `docs/design.md#custom-domains-and-certificates`,
//! `docs/design.md#tenant-isolation`): proving a domain, the pending state, and removing a
//! domain.
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
//! server checks it again on its own with back-off ([`crate::domains::checks`]), so an owner
//! never has to come back and retype it once DNS has propagated. A pending domain reserves
//! nothing: the first project to prove it takes it, and every pending claim on it (and on its
//! `www.` twin) goes. A name and its `www.` twin are one unit: when another project holds
//! either, the answer is 409 `domain_in_use` before any lookup (the checks of a requested
//! domain, shared with the project form, are [`crate::domains::custom`]'s).
//!
//! **Server-owned:** `meta.verified`, `verifiedDomain` and `verifiedTimestamp` are set only by
//! a successful check; no request body writes them. The spec's answer to a check is text, so
//! the DNS outcomes are `text/plain`, unless the caller accepts JSON: then they are a
//! [`crate::domains::report::DnsReport`], each finding a code the dashboard translates. What
//! the caller got wrong before any lookup (unknown project, invalid or taken domain, bad body)
//! keeps the API's JSON error shape.

use anyhow::Context;
use axum::{extract::State, http::HeaderMap, response::Response};
use serde::Deserialize;
use utoipa::ToSchema;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{dns::DnsCheck, domain::challenge_value};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorize_project,
    domains::report::{DnsReport, report},
    domains::{checks::first_recheck, custom::domain_for},
    error::{ErrorBody, Result},
    extract::{ApiJson, ApiPath},
    projects::full_view,
    responses::ProjectView,
    state::AppState,
};

/// The body of `POST /api/dns-verify`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct DnsVerify {
    #[schema(value_type = i64)]
    pub project_id: ProjectId,
    pub domain: String,
}

/// Checks the domain's TXT proof and where it points. Proven and pointing here: the domain
/// becomes the project's verified domain (200). Otherwise it is saved as the project's pending
/// domain, which the server keeps checking on its own (422, or 503 when the DNS servers could
/// not be asked), unless it already is the project's verified domain, which stays as it was.
///
/// The answer is the spec's text, or the [`DnsReport`] as JSON for a caller whose `Accept`
/// names JSON (the dashboard, which translates its codes).
#[utoipa::path(post, path = "/api/dns-verify", tag = "projects", request_body = DnsVerify,
    responses(
        (status = 200, description = "Verified: says where the domain points (text; JSON for a caller that accepts it)",
            content((String = "text/plain"), (DnsReport = "application/json"))),
        (status = 404, body = ErrorBody),
        (status = 409, description = "domain_in_use: another project holds the domain or its www. twin", body = ErrorBody),
        (status = 422, description = "invalid domain, or the domain is not proven or does not point here yet: what was found and what to set (`details`); saved as pending",
            content((String = "text/plain"), (ErrorBody = "application/json"))),
        (status = 503, description = "The DNS servers could not be asked; saved as pending",
            content((String = "text/plain"), (ErrorBody = "application/json"))),
    ))]
pub async fn dns_verify(
    State(state): State<AppState>,
    user: CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<DnsVerify>,
) -> Result<Response> {
    authorize_project(&state, &user, req.project_id).await?;
    let domain = domain_for(&state, req.project_id, &req.domain).await?;
    let domain = domain.as_str();
    let project = state.store.project_by_id(req.project_id).await?;
    let check = DnsCheck::from_settings(&state.settings).context("DNS check settings")?;
    let token = challenge_value(&project.uuid);
    let outcome = check.verify(domain, &token).await;
    let held = project.verified_domain.as_deref() == Some(domain);
    let (status, found) = report(&check, domain, &token, &outcome, held);
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
                &found.stored(),
                Some(first_recheck(&state.settings)),
            )
            .await?;
    }
    if let Some(cause) = outcome.unreachable() {
        tracing::warn!(domain, %cause, "DNS check could not reach the nameservers");
    }
    Ok(found.respond(status, &headers))
}

/// Removes the project's custom domain, its pending domain, its verification and its
/// certificates.
#[utoipa::path(post, path = "/api/remove-domain/{id}", tag = "projects",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ProjectView), (status = 404, body = ErrorBody)))]
pub async fn remove_domain(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
) -> Result<ApiJson<ProjectView>> {
    authorize_project(&state, &user, id).await?;
    state.store.remove_domain(id).await?;
    let project = state.store.project_by_id(id).await?;
    Ok(ApiJson(full_view(&state, &project).await?))
}
