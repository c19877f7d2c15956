//! The read API, `GET /_api/collections/{slug}`: its query string, its answer (cached in the
//! render cache under the records generation, as the pages are) and its refusals.

use std::sync::Arc;

use bytes::Bytes;
use hyper::StatusCode;
use vitrine_shared::{
    compress::{Effort, variants},
    record_lists::ListQuery,
};

use super::{collection, etag_of, list_in_slot, permalink};
use crate::{
    pages,
    serve::{JSON, Resp},
    sites::{DeployView, Rendered, Site, Sites, Unavailable},
};

/// Why a read-API query was refused before reaching the database.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadQuery(pub String);

/// Reads the read API's query string: `filter_field`, `filter_op`, `filter_value`,
/// `order_field`, `order_dir`, `limit` (1–100), `offset` (the names of
/// [`ListQuery`], as the control plane's list endpoint takes them).
pub fn parse_list_query(query: Option<&str>) -> Result<ListQuery, BadQuery> {
    let mut q = ListQuery::default();
    let int = |name: &str, v: &str| {
        v.trim()
            .parse::<i64>()
            .map_err(|_| BadQuery(format!("{name} must be a whole number")))
    };
    for (k, v) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        let v = v.into_owned();
        match k.as_ref() {
            "filter_field" => q.filter_field = Some(v),
            "filter_op" => q.filter_op = Some(v),
            "filter_value" => q.filter_value = Some(v),
            "order_field" => q.order_field = Some(v),
            "order_dir" => {
                if !matches!(v.as_str(), "asc" | "desc") {
                    return Err(BadQuery("order_dir is asc or desc".into()));
                }
                q.order_dir = Some(v)
            }
            "limit" => q.limit = Some(int("limit", &v)?),
            "offset" => q.offset = Some(int("offset", &v)?),
            other => {
                let shown: String = other.chars().take(40).collect();
                return Err(BadQuery(format!("Unknown parameter {shown:?}")));
            }
        }
    }
    if q.limit.is_some_and(|l| !(1..=100).contains(&l)) {
        return Err(BadQuery("limit is between 1 and 100".into()));
    }
    if q.offset.is_some_and(|o| o < 0) {
        return Err(BadQuery("offset is not negative".into()));
    }
    Ok(q)
}

fn json(status: StatusCode, value: serde_json::Value) -> Rendered {
    let body = Bytes::from(value.to_string());
    Rendered {
        status,
        content_type: JSON,
        etag: Some(etag_of(&body)),
        body,
        br: None,
        gzip: None,
    }
}

/// [`json`] with its brotli and gzip variants, compressed once, on a blocking thread (not a
/// visitor thread), by a caller that holds one of the account's list slots: an account's
/// compressions are bounded as its queries are.
async fn compressed_json(status: StatusCode, value: serde_json::Value) -> Rendered {
    let mut r = json(status, value);
    let body = r.body.clone();
    let made = tokio::task::spawn_blocking(move || variants(&body, Effort::Quick)).await;
    if let Ok(v) = made {
        r.br = v.br.map(Bytes::from);
        r.gzip = v.gzip.map(Bytes::from);
    }
    r
}

/// `GET /_api/collections/{slug}`: the records as a JSON array, like the control plane's
/// `/api/project/{id}/db/{table}/data`: raw values in `fields`, the formatted ones in
/// `formatted` (see `vitrine_shared::values`) and, when the collection has a collection page,
/// the post's page in `url`. Only the collections the deploy lists are readable.
pub async fn read_api(
    sites: &Sites,
    site: &Site,
    deploy: &Arc<DeployView>,
    slug: &str,
    query: &ListQuery,
    raw_query: &str,
) -> Option<Result<Arc<Rendered>, Unavailable>> {
    let id = *deploy.manifest.collections.get(slug)?;
    let key = (
        site.project_id,
        sites.records_generation(site.project_id),
        deploy.manifest.deploy_id,
        format!("api:{slug}?{raw_query}"),
    );
    Some(
        sites
            .rendered(key, async {
                let Some((c, fields)) = collection(sites, site, id).await? else {
                    return Ok(json(
                        StatusCode::NOT_FOUND,
                        serde_json::json!({"error": "not_found", "message": "Unknown collection"}),
                    ));
                };
                let _slot = sites.list_slot(site.account).await?;
                Ok(match list_in_slot(sites, &c, &fields, query).await? {
                    Ok(mut records) => {
                        for r in &mut records {
                            r.url =
                                Some(permalink(deploy, c.id, &r.slug)).filter(|u| !u.is_empty());
                        }
                        compressed_json(StatusCode::OK, serde_json::json!(records)).await
                    }
                    Err(e) => json(
                        StatusCode::BAD_REQUEST,
                        serde_json::json!({"error": "invalid_query", "message": e.0}),
                    ),
                })
            })
            .await,
    )
}

/// The read API's answer when the records cannot be read: 400 for a query the database cannot
/// compare, 503 for a slow query or busy workers (this query alone) or an outage.
pub fn api_unavailable(e: &Unavailable) -> Resp {
    let (status, code, message) = match e {
        Unavailable::Refused(_) => (
            StatusCode::BAD_REQUEST,
            "invalid_query",
            "The database cannot compare a value of this query",
        ),
        // This query alone: the site and the others are served as usual.
        Unavailable::SlowQuery(_) | Unavailable::Busy | Unavailable::Throttled(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "query_timeout",
            "The query took too long; narrow it down or try again",
        ),
        _ => (
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "The collection cannot be read right now",
        ),
    };
    pages::json_error(status, code, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_api_queries_parse_with_clear_refusals() {
        let q = parse_list_query(Some(
            "filter_field=categoria&filter_value=Roupas&order_field=preco&order_dir=asc&limit=5&offset=10",
        ))
        .unwrap();
        assert_eq!(q.filter_field.as_deref(), Some("categoria"));
        assert_eq!(q.limit, Some(5));
        assert_eq!(q.offset, Some(10));
        assert_eq!(parse_list_query(None).unwrap(), ListQuery::default());
        for (bad, message) in [
            ("limit=101", "limit is between 1 and 100"),
            ("limit=0", "limit is between 1 and 100"),
            ("limit=abc", "limit must be a whole number"),
            ("offset=-1", "offset is not negative"),
            ("order_dir=up", "order_dir is asc or desc"),
            ("drop=table", "Unknown parameter \"drop\""),
        ] {
            assert_eq!(parse_list_query(Some(bad)), Err(BadQuery(message.into())));
        }
    }
}
