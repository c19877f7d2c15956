//! The owner's visitor report (`docs/analytics.md`): `GET /api/projects/{id}/analytics`,
//! from the aggregates the edges flush (`vitrine_shared::store`'s analytics). The range is
//! two UTC dates, both included, of at most two years; other accounts' projects answer 404
//! through the one project policy.

use axum::extract::State;
use chrono::{Days, NaiveDate, Utc};
use serde::Deserialize;
use utoipa::IntoParams;
use vitrine_shared::{
    ids::ProjectId,
    store::{AnalyticsReport, KEEP_DAYS},
};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorize_project,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, ApiQuery},
    state::AppState,
};

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AnalyticsQuery {
    /// First day, YYYY-MM-DD (UTC); default: 29 days before `to`.
    pub from: Option<String>,
    /// Last day, YYYY-MM-DD (UTC), included; default: today.
    pub to: Option<String>,
}

/// The longest range, in days.
const MAX_DAYS: i64 = KEEP_DAYS;

fn date(name: &'static str, value: &str) -> Result<NaiveDate> {
    NaiveDate::parse_from_str(value, "%Y-%m-%d").map_err(|_| {
        ApiError::bad_request(
            ErrorCode::AnalyticsDateInvalid,
            format!("{name} must be a date such as 2026-11-01"),
        )
        .at(name)
    })
}

impl AnalyticsQuery {
    /// The range asked for; bad dates, `from` after `to` and a range over two years are 400s.
    fn range(&self) -> Result<(NaiveDate, NaiveDate)> {
        let to = match &self.to {
            Some(t) => date("to", t)?,
            None => Utc::now().date_naive(),
        };
        let from = match &self.from {
            Some(f) => date("from", f)?,
            None => to - Days::new(29),
        };
        if from > to {
            return Err(ApiError::bad_request(
                ErrorCode::AnalyticsRangeInvalid,
                "from must not be after to",
            ));
        }
        if (to - from).num_days() >= MAX_DAYS {
            return Err(ApiError::bad_request(
                ErrorCode::AnalyticsRangeTooLong,
                format!("The range may have at most {MAX_DAYS} days"),
            )
            .param("max", MAX_DAYS));
        }
        Ok((from, to))
    }
}

#[utoipa::path(get, path = "/api/projects/{id}/analytics", tag = "analytics",
    params(("id" = i64, Path, description = "Project id"), AnalyticsQuery),
    responses((status = 200, body = AnalyticsReport), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn analytics(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<ProjectId>,
    ApiQuery(q): ApiQuery<AnalyticsQuery>,
) -> Result<ApiJson<AnalyticsReport>> {
    authorize_project(&state, &user, project_id).await?;
    let (from, to) = q.range()?;
    let project = state.store.project_by_id(project_id).await?;
    let enabled = project.meta.get("analytics").and_then(|v| v.as_bool()) != Some(false);
    let report = state
        .store
        .analytics_report(project_id, from, to, Utc::now(), enabled)
        .await?;
    Ok(ApiJson(report))
}
