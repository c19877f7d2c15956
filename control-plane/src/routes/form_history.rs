//! Form history (spec 1 §2, §7): the submissions a published site's forms received, bulk
//! deletion, the one project setting the screen owns, its order, and the per-project cap
//! ([`HistoryLimit`]) with the owner's notice.
//!
//! The edge stores `data` already sanitised; it is cleaned again on the way out, so a row
//! written by an older or faulty edge still cannot carry a script to the dashboard.

use axum::extract::State;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::{
    fields::sanitize_html,
    store::{HistoryUsage, ProjectChanges, Submission},
};

use crate::{
    auth::CurrentUser,
    authz::authorize_project,
    error::{ApiError, ApiJson, ApiPath, ApiQuery, ErrorBody, ErrorCode, Result},
    pagination::{PageRequest, Paginated},
    routes::{
        posts::{BulkDelete, Deleted},
        projects::ProjectMetaInput,
    },
    state::AppState,
    views::ProjectView,
};

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// Page number from 1.
    pub page: Option<i64>,
    /// Entries per page: 1 to 1000 (default 100), or -1 for all.
    pub limit: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FormHistoryView {
    pub project: ProjectView,
    /// Ordered by the project's `meta.formHistoryOrderBy` (newest first by default).
    pub history: Paginated<Submission>,
    /// The per-project cap and what it removed: the owner's notice.
    pub limit: HistoryLimit,
}

/// The form history keeps at most `max_entries` per project (`FORM_HISTORY_MAX_ENTRIES`);
/// each submission past it deletes the oldest entry, so one flooded form cannot grow the
/// shared database without bound. The owner is told here (and the dashboard shows it).
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryLimit {
    pub max_entries: i64,
    /// Entries deleted so far to stay within it.
    pub trimmed: i64,
    /// When entries were last deleted.
    pub last_trimmed_at: Option<DateTime<Utc>>,
    /// `trimmed` (older entries were deleted), `near` (at least 90 % full) or `null`.
    pub warning: Option<&'static str>,
}

impl HistoryLimit {
    fn new(max_entries: i64, total: i64, usage: HistoryUsage) -> HistoryLimit {
        let warning = if usage.trimmed > 0 {
            Some("trimmed")
        } else if total.saturating_mul(10) >= max_entries.saturating_mul(9) {
            Some("near")
        } else {
            None
        };
        HistoryLimit {
            max_entries,
            trimmed: usage.trimmed,
            last_trimmed_at: usage.last_trimmed_at,
            warning,
        }
    }
}

/// The order the owner chose: `created_at` is oldest first, anything else newest first.
fn newest_first(meta: &Value) -> bool {
    meta.get("formHistoryOrderBy").and_then(Value::as_str) != Some("created_at")
}

#[utoipa::path(get, path = "/api/projects/{id}/form-history", tag = "form history",
    params(("id" = i64, Path, description = "Project id"), HistoryQuery),
    responses((status = 200, body = FormHistoryView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn form_history(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<HistoryQuery>,
) -> Result<ApiJson<FormHistoryView>> {
    authorize_project(&state, &user, project_id).await?;
    let pages = PageRequest::parse(q.page, q.limit)?;
    let project = state.store.project_by_id(project_id).await?;
    let (rows, total) = state
        .store
        .list_submissions(
            project_id,
            newest_first(&project.meta.0),
            pages.limit.unwrap_or(i64::MAX),
            pages.offset(),
        )
        .await?;
    let usage = state.store.form_history_usage(project_id).await?;
    let max_entries = i64::try_from(state.settings.form_history_max_entries).unwrap_or(i64::MAX);
    let rows = rows
        .into_iter()
        .map(|s| Submission {
            data: sanitize_html(&s.data),
            ..s
        })
        .collect();
    let query: Vec<(&str, String)> = q
        .limit
        .map(|l| ("limit", l.to_string()))
        .into_iter()
        .collect();
    Ok(ApiJson(FormHistoryView {
        project: ProjectView::new(&project, &state.settings),
        history: Paginated::new(
            rows,
            total,
            pages,
            &format!("/api/projects/{project_id}/form-history"),
            &query,
        ),
        limit: HistoryLimit::new(max_entries, total, usage),
    }))
}

/// Deletes the selected entries of this project; ids of other projects are left alone.
#[utoipa::path(delete, path = "/api/projects/{id}/form-history", tag = "form history", request_body = BulkDelete,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = Deleted), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn delete_form_history(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<i64>,
    ApiJson(req): ApiJson<BulkDelete>,
) -> Result<ApiJson<Deleted>> {
    authorize_project(&state, &user, project_id).await?;
    if req.selected.len() > 10_000 {
        return Err(ApiError::invalid(
            "selected",
            ErrorCode::TooManySelected,
            "Select at most 10,000 entries at a time",
        )
        .param("max", 10_000));
    }
    Ok(ApiJson(Deleted {
        deleted: state
            .store
            .delete_submissions(project_id, &req.selected)
            .await?,
    }))
}

/// The form history's settings modal.
#[derive(Debug, Deserialize, ToSchema)]
pub struct FormHistorySettings {
    /// `created_at` (oldest first) or `-created_at` (newest first).
    #[serde(rename = "formHistoryOrderBy")]
    pub form_history_order_by: String,
}

/// Stores the form history order in the project's meta, with the same check as the project
/// form's meta (nothing else in meta can be written through this call).
#[utoipa::path(post, path = "/api/projects/{id}/settings", tag = "form history", request_body = FormHistorySettings,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ProjectView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_settings(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<i64>,
    ApiJson(req): ApiJson<FormHistorySettings>,
) -> Result<ApiJson<ProjectView>> {
    authorize_project(&state, &user, project_id).await?;
    let current = state.store.project_by_id(project_id).await?;
    let meta = ProjectMetaInput {
        form_history_order_by: Some(req.form_history_order_by),
        ..ProjectMetaInput::default()
    }
    .merge_into(&current.meta.0)?;
    let changes = ProjectChanges {
        meta: Some(meta),
        ..ProjectChanges::default()
    };
    let project = state.store.update_project(project_id, &changes).await?;
    Ok(ApiJson(ProjectView::new(&project, &state.settings)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_owner_is_warned_near_the_cap_and_once_entries_were_trimmed() {
        let usage = |trimmed| HistoryUsage {
            entries: 0,
            trimmed,
            last_trimmed_at: None,
        };
        assert_eq!(HistoryLimit::new(100, 89, usage(0)).warning, None);
        assert_eq!(HistoryLimit::new(100, 90, usage(0)).warning, Some("near"));
        assert_eq!(
            HistoryLimit::new(100, 100, usage(3)).warning,
            Some("trimmed")
        );
    }

    #[test]
    fn history_is_newest_first_unless_the_owner_chose_otherwise() {
        assert!(newest_first(&json!({})));
        assert!(newest_first(&json!(null)));
        assert!(newest_first(&json!({"formHistoryOrderBy": "-created_at"})));
        assert!(!newest_first(&json!({"formHistoryOrderBy": "created_at"})));
    }
}
