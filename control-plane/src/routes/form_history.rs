//! Form history (spec 1 §2, §7): the submissions a published site's forms received, bulk
//! deletion, the settings the screen owns (its order and the thank-you page a visitor sees
//! after sending), and the per-project cap ([`HistoryLimit`]) with the owner's notice.
//!
//! The list is searched and filtered by date on the server (`q`, `from`, `to`), one page at a
//! time, and the same filter exports every matching row as CSV (`…/form-history/export`),
//! written with the `csv` crate (RFC 4180 quoting), one column per form field, and with the
//! spreadsheet-formula guard of the collection export (`fields::csv_text`): a visitor's text
//! starting with `=`, `+`, `-` or `@` is marked with a leading `'` so a spreadsheet shows it
//! rather than runs it. The file starts with a UTF-8 byte-order mark, which spreadsheet
//! programs need to read accents as UTF-8.
//!
//! The edge stores `data` already sanitised; it is cleaned again on the way out, so a row
//! written by an older or faulty edge still cannot carry a script to the dashboard.

use axum::{
    extract::State,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::ids::{PageId, ProjectId, SubmissionId};
use vitrine_shared::{
    fields::{csv_text, sanitize_html, submission_fields},
    store::{HistoryUsage, ProjectChanges, StoreError, Submission, SubmissionFilter},
};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorize_project,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, ApiQuery, BulkDelete, double_option},
    pagination::{PageRequest, Paginated},
    projects::{FormOrder, ProjectMetaInput},
    responses::{Deleted, ProjectView},
    state::AppState,
};

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// Page number from 1.
    pub page: Option<i64>,
    /// Entries per page: 1 to 1000 (default 100), or -1 for all. The export ignores `page`
    /// and `limit`: it has every matching entry.
    pub limit: Option<i64>,
    /// Text to find (case-insensitive) in the url, subject, button, recipient or any field.
    pub q: Option<String>,
    /// Received on or after: a date (`2026-11-01`, from midnight UTC) or an RFC 3339 instant.
    pub from: Option<String>,
    /// Received on or before: a date (the whole day, UTC), or before an RFC 3339 instant.
    pub to: Option<String>,
}

/// Longest search text.
const MAX_TERM: usize = 255;

impl HistoryQuery {
    /// The filter these values ask for; a bad date or a long text answers 400.
    fn filter(&self) -> Result<SubmissionFilter> {
        let text = self.q.as_deref().map(str::trim).filter(|t| !t.is_empty());
        if text.is_some_and(|t| t.chars().count() > MAX_TERM) {
            return Err(ApiError::bad_request(
                ErrorCode::SearchTooLong,
                format!("q must be at most {MAX_TERM} characters"),
            )
            .param("max", MAX_TERM));
        }
        Ok(SubmissionFilter {
            text: text.map(str::to_string),
            from: bound("from", self.from.as_deref(), false)?,
            until: bound("to", self.to.as_deref(), true)?,
        })
    }

    /// The query values the page links carry on.
    fn carried(&self) -> Vec<(&'static str, String)> {
        [
            ("limit", self.limit.map(|l| l.to_string())),
            ("q", self.q.clone()),
            ("from", self.from.clone()),
            ("to", self.to.clone()),
        ]
        .into_iter()
        .filter_map(|(k, v)| Some((k, v.filter(|v| !v.is_empty())?)))
        .collect()
    }
}

/// A date filter's instant: a date is its midnight UTC, or the next day's for the end of a
/// range (so `to` takes the whole day); an RFC 3339 instant is itself.
fn bound(field: &str, raw: Option<&str>, end: bool) -> Result<Option<DateTime<Utc>>> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    let day = NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .ok()
        .and_then(|d| if end { d.succ_opt() } else { Some(d) })
        .map(|d| d.and_time(NaiveTime::MIN).and_utc());
    day.or_else(|| {
        DateTime::parse_from_rfc3339(raw)
            .ok()
            .map(|d| d.with_timezone(&Utc))
    })
    .map(Some)
    .ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::DateInvalid,
            format!("{field} must be a date (YYYY-MM-DD) or an RFC 3339 instant"),
        )
        .at(field)
    })
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
    pub warning: Option<HistoryWarning>,
}

/// What the owner is warned of about the form history's cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum HistoryWarning {
    /// Older entries were deleted to stay within it.
    Trimmed,
    /// It is at least 90 % full.
    Near,
}

impl HistoryLimit {
    fn new(max_entries: i64, total: i64, usage: HistoryUsage) -> HistoryLimit {
        let warning = if usage.trimmed > 0 {
            Some(HistoryWarning::Trimmed)
        } else if total.saturating_mul(10) >= max_entries.saturating_mul(9) {
            Some(HistoryWarning::Near)
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
    ApiPath(project_id): ApiPath<ProjectId>,
    ApiQuery(q): ApiQuery<HistoryQuery>,
) -> Result<ApiJson<FormHistoryView>> {
    authorize_project(&state, &user, project_id).await?;
    let pages = PageRequest::parse(q.page, q.limit)?;
    let filter = q.filter()?;
    let project = state.store.project_by_id(project_id).await?;
    let (rows, total) = state
        .store
        .search_submissions(
            project_id,
            &filter,
            newest_first(&project.meta.0),
            pages.limit.unwrap_or(i64::MAX),
            pages.offset(),
        )
        .await?;
    let usage = state.store.form_history_usage(project_id).await?;
    // The cap's warning is about everything kept, not about what the filter shows.
    let kept = if filter == SubmissionFilter::default() {
        total
    } else {
        usage.entries
    };
    let max_entries = i64::try_from(state.settings.form_history_max_entries).unwrap_or(i64::MAX);
    let rows = rows
        .into_iter()
        .map(|s| Submission {
            data: sanitize_html(&s.data),
            ..s
        })
        .collect();
    let query = q.carried();
    Ok(ApiJson(FormHistoryView {
        project: ProjectView::new(&project, &state.settings),
        history: Paginated::new(
            rows,
            total,
            pages,
            &format!("/api/projects/{project_id}/form-history"),
            &query,
        ),
        limit: HistoryLimit::new(max_entries, kept, usage),
    }))
}

/// Every entry the filter keeps, in the list's order, as CSV: `created_at`, `url`,
/// `subject`, `submit`, `to`, then one column per form field (in the order they first appear).
#[utoipa::path(get, path = "/api/projects/{id}/form-history/export", tag = "form history",
    params(("id" = i64, Path, description = "Project id"), HistoryQuery),
    responses((status = 200, description = "CSV (UTF-8)", content_type = "text/csv"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn export_form_history(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<ProjectId>,
    ApiQuery(q): ApiQuery<HistoryQuery>,
) -> Result<Response> {
    authorize_project(&state, &user, project_id).await?;
    let filter = q.filter()?;
    let project = state.store.project_by_id(project_id).await?;
    let (rows, _) = state
        .store
        .search_submissions(
            project_id,
            &filter,
            newest_first(&project.meta.0),
            i64::MAX,
            0,
        )
        .await?;
    let csv = history_csv(&rows).map_err(|e| ApiError::Internal(e.into()))?;
    let mut response = csv.into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"form-history-{}.csv\"",
        project.slug
    )) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

/// The export's fixed columns, before the form's own fields.
const FIXED_COLUMNS: [&str; 5] = ["created_at", "url", "subject", "submit", "to"];

/// The CSV file of `rows` (see [`export_form_history`]).
fn history_csv(rows: &[Submission]) -> Result<Vec<u8>, csv::Error> {
    let fields: Vec<Vec<(String, String)>> =
        rows.iter().map(|r| submission_fields(&r.data)).collect();
    let mut names: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (name, _) in fields.iter().flatten() {
        if seen.insert(name.as_str()) {
            names.push(name);
        }
    }
    let mut w = csv::Writer::from_writer(b"\xEF\xBB\xBF".to_vec());
    // Field names are the visitor's too: marked like any other text.
    w.write_record(
        FIXED_COLUMNS
            .iter()
            .map(|c| c.to_string())
            .chain(names.iter().map(|n| csv_text(n).into_owned())),
    )?;
    for (row, fields) in rows.iter().zip(&fields) {
        let created_at = row.created_at.to_rfc3339();
        let fixed = [
            created_at.as_str(),
            row.url.as_str(),
            row.subject.as_str(),
            row.submit.as_str(),
            row.to.as_str(),
        ];
        let values = names.iter().map(|name| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map_or("", |(_, v)| v.as_str())
        });
        w.write_record(
            fixed
                .into_iter()
                .chain(values)
                .map(|cell| csv_text(cell).into_owned()),
        )?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// Deletes the selected entries of this project; ids of other projects are left alone.
#[utoipa::path(delete, path = "/api/projects/{id}/form-history", tag = "form history", request_body = BulkDelete,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = Deleted), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn delete_form_history(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<ProjectId>,
    ApiJson(req): ApiJson<BulkDelete>,
) -> Result<ApiJson<Deleted>> {
    authorize_project(&state, &user, project_id).await?;
    let selected: Vec<SubmissionId> = req
        .selected("entries")?
        .iter()
        .copied()
        .map(SubmissionId)
        .collect();
    Ok(ApiJson(Deleted {
        deleted: state
            .store
            .delete_submissions(project_id, &selected)
            .await?,
    }))
}

/// The form history's settings modal; a key left out keeps its value.
#[derive(Debug, Deserialize, ToSchema)]
pub struct FormHistorySettings {
    /// `created_at` (oldest first) or `-created_at` (newest first); read as text, so that
    /// another value gets the coded `form_order_invalid` answer.
    #[serde(rename = "formHistoryOrderBy", default)]
    #[schema(value_type = Option<FormOrder>)]
    pub form_history_order_by: Option<String>,
    /// The page a visitor is sent to after a form is sent: the id of a static page of this
    /// project, or null for none (the form's own page then shows a confirmation).
    #[serde(
        rename = "formThankYouPage",
        default,
        deserialize_with = "double_option"
    )]
    #[schema(value_type = Option<i64>)]
    pub form_thank_you_page: Option<Option<PageId>>,
}

/// Stores the form history order and the thank-you page in the project's meta, the order with
/// the same check as the project form's meta, the page only when it is a static page of this
/// very project (nothing else in meta can be written through this call). Takes effect on the
/// site at its next publication.
#[utoipa::path(post, path = "/api/projects/{id}/settings", tag = "form history", request_body = FormHistorySettings,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ProjectView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_settings(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<ProjectId>,
    ApiJson(req): ApiJson<FormHistorySettings>,
) -> Result<ApiJson<ProjectView>> {
    authorize_project(&state, &user, project_id).await?;
    if req.form_history_order_by.is_none() && req.form_thank_you_page.is_none() {
        return Err(ApiError::invalid(
            "formHistoryOrderBy",
            ErrorCode::Required,
            "Send formHistoryOrderBy, formThankYouPage or both",
        ));
    }
    let current = state.store.project_by_id(project_id).await?;
    let mut meta = ProjectMetaInput {
        form_history_order_by: req.form_history_order_by,
        ..ProjectMetaInput::default()
    }
    .merge_into(&current.meta.0)?;
    if let (Some(choice), Value::Object(m)) = (req.form_thank_you_page, &mut meta) {
        match choice {
            None => {
                m.remove(THANK_YOU_KEY);
            }
            Some(page_id) => {
                check_thank_you_page(&state, project_id, page_id).await?;
                m.insert(THANK_YOU_KEY.into(), Value::from(page_id.get()));
            }
        }
    }
    let changes = ProjectChanges {
        meta: Some(meta),
        ..ProjectChanges::default()
    };
    let project = state.store.update_project(project_id, &changes).await?;
    Ok(ApiJson(ProjectView::new(&project, &state.settings)))
}

/// Where the thank-you page's id is kept in the project's meta.
const THANK_YOU_KEY: &str = "formThankYouPage";

/// A thank-you page must be a static page of this project: another project's page (or a
/// collection page, which has no path of its own) is refused like one that does not exist.
async fn check_thank_you_page(
    state: &AppState,
    project_id: ProjectId,
    page_id: PageId,
) -> Result<()> {
    let refused = || {
        ApiError::invalid(
            THANK_YOU_KEY,
            ErrorCode::ThankYouPageInvalid,
            "The thank-you page must be a page of this project",
        )
    };
    match state.store.page_by_id(page_id).await {
        Ok(page) if page.project_id == project_id && page.table_id.is_none() => Ok(()),
        Ok(_) | Err(StoreError::NotFound) => Err(refused()),
        Err(e) => Err(e.into()),
    }
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
        assert_eq!(
            HistoryLimit::new(100, 90, usage(0)).warning,
            Some(HistoryWarning::Near)
        );
        assert_eq!(
            HistoryLimit::new(100, 100, usage(3)).warning,
            Some(HistoryWarning::Trimmed)
        );
    }

    #[test]
    fn date_filters_take_days_or_instants() {
        let day = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        assert_eq!(bound("from", None, false).unwrap(), None);
        assert_eq!(bound("from", Some(" "), false).unwrap(), None);
        assert_eq!(
            bound("from", Some("2026-11-01"), false).unwrap(),
            Some(day("2026-11-01T00:00:00Z"))
        );
        assert_eq!(
            bound("to", Some("2026-11-01"), true).unwrap(),
            Some(day("2026-11-02T00:00:00Z"))
        );
        assert_eq!(
            bound("to", Some("2026-11-01T03:00:00-03:00"), true).unwrap(),
            Some(day("2026-11-01T06:00:00Z"))
        );
        for bad in ["01/11/2026", "2026-13-01", "ontem"] {
            assert!(bound("from", Some(bad), false).is_err(), "{bad}");
        }
    }

    #[test]
    fn history_is_newest_first_unless_the_owner_chose_otherwise() {
        assert!(newest_first(&json!({})));
        assert!(newest_first(&json!(null)));
        assert!(newest_first(&json!({"formHistoryOrderBy": "-created_at"})));
        assert!(!newest_first(&json!({"formHistoryOrderBy": "created_at"})));
    }
}
