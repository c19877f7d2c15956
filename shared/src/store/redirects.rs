//! A project's redirect rules: the searchable, ordered, paginated list behind the redirects
//! screen, one rule at a time for the form, and every rule for publishing.
//!
//! Every write appends a `redirects` change in the same transaction, so an edge that cached
//! the project's rules hears of the change even if the write is the only thing that happened.
//! Paths arrive already validated and normalised (`crate::redirects::parse_rule`).

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::BeginWrite;
use super::{Result, Store, StoreError, dispatch, map_err, now, publishing::push_change, trusted};
use crate::ids::{ProjectId, RedirectId};
use crate::redirects::MAX_RULES;

/// One stored rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct RedirectRule {
    pub id: RedirectId,
    pub project_id: ProjectId,
    #[sqlx(rename = "from_path")]
    pub from: String,
    #[sqlx(rename = "to_path")]
    pub to: String,
    pub created_at: DateTime<Utc>,
}

const REDIRECT_COLUMNS: &str = "id, project_id, from_path, to_path, created_at";

/// The conflict of a rule added to a project that has [`MAX_RULES`] already.
pub const REDIRECTS_FULL: &str = "redirects_full";

/// How the redirects list is ordered (spec 1 §9: `-created_at` by default, or `created_at`
/// and `from`; `-from` for symmetry). Ties fall back to the id, so pages never overlap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RedirectOrder {
    #[default]
    NewestFirst,
    OldestFirst,
    From,
    FromDesc,
}

impl RedirectOrder {
    /// The API's spelling: `-created_at`, `created_at`, `from`, `-from`.
    pub fn parse(s: &str) -> Option<RedirectOrder> {
        Some(match s {
            "-created_at" => RedirectOrder::NewestFirst,
            "created_at" => RedirectOrder::OldestFirst,
            "from" => RedirectOrder::From,
            "-from" => RedirectOrder::FromDesc,
            _ => return None,
        })
    }

    fn sql(self, pg: bool) -> &'static str {
        // PostgreSQL would sort text by the database's locale; "C" compares bytes, as SQLite
        // does, so both databases list rules in the same order.
        match (self, pg) {
            (RedirectOrder::NewestFirst, _) => "created_at DESC, id DESC",
            (RedirectOrder::OldestFirst, _) => "created_at ASC, id ASC",
            (RedirectOrder::From, true) => "from_path COLLATE \"C\" ASC, id ASC",
            (RedirectOrder::From, false) => "from_path ASC, id ASC",
            (RedirectOrder::FromDesc, true) => "from_path COLLATE \"C\" DESC, id DESC",
            (RedirectOrder::FromDesc, false) => "from_path DESC, id DESC",
        }
    }
}

/// One page of the list.
#[derive(Debug, Clone, Default)]
pub struct RedirectQuery<'a> {
    /// Kept when the origin or the destination contains it, ignoring case; `%` and `_` in it
    /// are literal.
    pub term: Option<&'a str>,
    pub order: RedirectOrder,
    /// None: every matching rule.
    pub limit: Option<i64>,
    pub offset: i64,
}

/// `term` as a LIKE pattern matching it anywhere, with the pattern characters escaped by `\`.
fn contains_pattern(term: &str) -> String {
    let mut pattern = String::with_capacity(term.len() + 2);
    pattern.push('%');
    for c in term.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

impl Store {
    /// The rules matching `q` on one page, and how many match in all.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn redirects_page(
        &self,
        project_id: ProjectId,
        q: &RedirectQuery<'_>,
    ) -> Result<(Vec<RedirectRule>, i64)> {
        let pg = matches!(self, Store::Postgres(_));
        let term = q.term.map(str::trim).filter(|t| !t.is_empty());
        let filter = if term.is_some() {
            " AND (lower(from_path) LIKE $2 ESCAPE '\\' OR lower(to_path) LIKE $2 ESCAPE '\\')"
        } else {
            // Keeps $2 in the statement, so both forms bind the same parameters.
            " AND $2 = ''"
        };
        let pattern = term.map(contains_pattern).unwrap_or_default();
        let list_sql = format!(
            "SELECT {REDIRECT_COLUMNS} FROM redirects WHERE project_id = $1{filter} \
             ORDER BY {} LIMIT $3 OFFSET $4",
            q.order.sql(pg)
        );
        let count_sql = format!("SELECT COUNT(*) FROM redirects WHERE project_id = $1{filter}");
        let limit = q.limit.unwrap_or(i64::MAX);
        dispatch!(self, p => {
            let rows = sqlx::query_as::<_, RedirectRule>(trusted(&list_sql))
                .bind(project_id).bind(&pattern).bind(limit).bind(q.offset)
                .fetch_all(p).await.map_err(map_err)?;
            let total = sqlx::query_scalar::<_, i64>(trusted(&count_sql))
                .bind(project_id).bind(&pattern)
                .fetch_one(p).await.map_err(map_err)?;
            Ok((rows, total))
        })
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn redirect_by_id(&self, id: RedirectId) -> Result<RedirectRule> {
        let sql = format!("SELECT {REDIRECT_COLUMNS} FROM redirects WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, RedirectRule>(trusted(&sql))
            .bind(id).fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Every rule of a project as `(from, to)`, oldest first (what a deploy compiles).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn project_redirects(&self, project_id: ProjectId) -> Result<Vec<(String, String)>> {
        dispatch!(self, p => sqlx::query_as::<_, (String, String)>(
            "SELECT from_path, to_path FROM redirects WHERE project_id = $1 ORDER BY id")
            .bind(project_id).fetch_all(p).await.map_err(map_err))
    }

    /// Adds a rule. An origin the project already has is `Conflict("redirects_from_key")`; a
    /// project that has [`MAX_RULES`] already is `Conflict(REDIRECTS_FULL)` (the count and the
    /// insert are one statement).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn insert_redirect(
        &self,
        project_id: ProjectId,
        from: &str,
        to: &str,
    ) -> Result<RedirectRule> {
        let sql = format!(
            "INSERT INTO redirects (project_id, from_path, to_path, created_at) \
             SELECT $1, $2, $3, $4 \
             WHERE (SELECT COUNT(*) FROM redirects WHERE project_id = $1) < $5 \
             RETURNING {REDIRECT_COLUMNS}"
        );
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let rule = sqlx::query_as::<_, RedirectRule>(trusted(&sql))
                .bind(project_id).bind(from).bind(to).bind(now()).bind(MAX_RULES)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::Conflict(REDIRECTS_FULL))?;
            push_change!(tx, project_id, "redirects", &rule.id.to_string())?;
            tx.commit().await.map_err(map_err)?;
            Ok(rule)
        })
    }

    /// Changes a rule's origin and destination; the same conflict as [`Store::insert_redirect`].
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn update_redirect(
        &self,
        id: RedirectId,
        from: &str,
        to: &str,
    ) -> Result<RedirectRule> {
        let sql = format!(
            "UPDATE redirects SET from_path = $1, to_path = $2 WHERE id = $3 \
             RETURNING {REDIRECT_COLUMNS}"
        );
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let rule = sqlx::query_as::<_, RedirectRule>(trusted(&sql))
                .bind(from).bind(to).bind(id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            push_change!(tx, rule.project_id, "redirects", &rule.id.to_string())?;
            tx.commit().await.map_err(map_err)?;
            Ok(rule)
        })
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_redirect(&self, id: RedirectId) -> Result<()> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let project_id = sqlx::query_scalar::<_, ProjectId>(
                "DELETE FROM redirects WHERE id = $1 RETURNING project_id")
                .bind(id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            push_change!(tx, project_id, "redirects", &id.to_string())?;
            tx.commit().await.map_err(map_err)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_terms_are_literal_and_lower_case() {
        assert_eq!(contains_pattern("Blog"), "%blog%");
        assert_eq!(contains_pattern("50%_off"), "%50\\%\\_off%");
        assert_eq!(contains_pattern("a\\b"), "%a\\\\b%");
    }

    #[test]
    fn orders_have_the_api_spelling() {
        assert_eq!(
            RedirectOrder::parse("-created_at"),
            Some(RedirectOrder::NewestFirst)
        );
        assert_eq!(
            RedirectOrder::parse("created_at"),
            Some(RedirectOrder::OldestFirst)
        );
        assert_eq!(RedirectOrder::parse("from"), Some(RedirectOrder::From));
        assert_eq!(RedirectOrder::parse("-from"), Some(RedirectOrder::FromDesc));
        assert_eq!(RedirectOrder::parse("to"), None);
        assert_eq!(RedirectOrder::default(), RedirectOrder::NewestFirst);
    }
}
