//! An export: keyset pages of 1,000 records streamed as CSV or JSON, so memory stays flat
//! whatever the size; relations written as their targets' slugs, amounts as people write them
//! in the field's format (CSV), formula-like text marked (see the parent module).

use std::{collections::HashMap, sync::Arc};

use axum::{
    body::Body,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use serde_json::{Map, Value};
use vitrine_shared::ids::{CollectionId, PostId};
use vitrine_shared::{
    fields::{FieldType, csv_cell, csv_text, format_currency},
    store::Post,
};

use super::{headers, summary::Format};
use crate::{
    accounts::authz::{Principal, authorize_collection_records},
    error::Result,
    records::Schema,
    state::AppState,
};

/// Everything an export needs besides the posts: the schema, and for relation fields the
/// slugs of their targets' posts (relations are written as slugs so files move between sites).
struct ExportPlan {
    schema: Schema,
    relation_slugs: HashMap<CollectionId, HashMap<PostId, String>>,
}

impl ExportPlan {
    async fn load(state: &AppState, table_id: CollectionId) -> Result<ExportPlan> {
        let schema = Schema::load(state, table_id).await?;
        let mut relation_slugs = HashMap::new();
        for f in schema
            .fields
            .iter()
            .filter(|f| f.kind == FieldType::Relation)
        {
            if let Some(target) = f.meta.table
                && !relation_slugs.contains_key(&target)
            {
                let map = state
                    .store
                    .post_slugs(target)
                    .await?
                    .into_iter()
                    .map(|(slug, id)| (id, slug))
                    .collect();
                relation_slugs.insert(target, map);
            }
        }
        Ok(ExportPlan {
            schema,
            relation_slugs,
        })
    }

    /// The post's values in export order, relations as slugs.
    fn values(&self, post: &Post) -> Vec<Value> {
        self.schema
            .fields
            .iter()
            .map(|f| {
                let v = post
                    .data
                    .0
                    .get(&f.id.to_string())
                    .cloned()
                    .unwrap_or(Value::Null);
                match (f.kind, f.meta.table, &v) {
                    (FieldType::Relation, Some(t), Value::Number(n)) => n
                        .as_i64()
                        .and_then(|id| self.relation_slugs.get(&t)?.get(&PostId(id)))
                        .map(|s| Value::String(s.clone()))
                        .unwrap_or(v),
                    _ => v,
                }
            })
            .collect()
    }
}

struct Cursor {
    state: AppState,
    plan: Arc<ExportPlan>,
    format: Format,
    after: PostId,
    started: bool,
    finished: bool,
    first_row: bool,
    bom: bool,
}

fn csv_line(fields: &[String]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(fields);
    w.into_inner().unwrap_or_default()
}

async fn next_chunk(mut c: Cursor) -> Option<(std::io::Result<Bytes>, Cursor)> {
    if c.finished {
        return None;
    }
    let mut out = Vec::new();
    if !c.started {
        c.started = true;
        match c.format {
            Format::Csv => {
                if c.bom {
                    out.extend_from_slice(b"\xEF\xBB\xBF");
                }
                out.extend(csv_line(&headers(&c.plan.schema)))
            }
            Format::Json => out.push(b'['),
        }
    }
    let posts = match c
        .state
        .store
        .posts_after(c.plan.schema.collection.id, c.after, 1000)
        .await
    {
        Ok(p) => p,
        Err(e) => {
            tracing::error!(error = %e, "export failed midway");
            c.finished = true;
            return Some((Err(std::io::Error::other(e.to_string())), c));
        }
    };
    if posts.is_empty() {
        c.finished = true;
        if c.format == Format::Json {
            out.extend_from_slice(b"]\n");
        }
    }
    for post in &posts {
        c.after = post.id;
        let values = c.plan.values(post);
        match c.format {
            Format::Csv => {
                let mut row = vec![
                    csv_text(&post.name).into_owned(),
                    csv_text(&post.slug).into_owned(),
                    post.created_at.to_rfc3339(),
                ];
                for (f, v) in c.plan.schema.fields.iter().zip(&values) {
                    row.push(match (f.kind, v.as_i64()) {
                        // Written without its symbol, so a spreadsheet reads it as a number.
                        (FieldType::Currency, Some(cents)) => {
                            format_currency(cents, "", f.meta.format.as_deref().unwrap_or(""))
                        }
                        _ => csv_cell(v),
                    });
                }
                out.extend(csv_line(&row));
            }
            Format::Json => {
                let mut obj = Map::new();
                obj.insert("name".into(), Value::String(post.name.clone()));
                obj.insert("slug".into(), Value::String(post.slug.clone()));
                obj.insert(
                    "created_at".into(),
                    Value::String(post.created_at.to_rfc3339()),
                );
                for (f, v) in c.plan.schema.fields.iter().zip(values) {
                    obj.insert(f.slug.clone(), v);
                }
                if !c.first_row {
                    out.push(b',');
                }
                c.first_row = false;
                out.push(b'\n');
                out.extend(serde_json::to_vec(&Value::Object(obj)).unwrap_or_default());
            }
        }
    }
    Some((Ok(Bytes::from(out)), c))
}

pub(super) async fn export(
    state: AppState,
    principal: Principal,
    table_id: CollectionId,
    format: Format,
    bom: bool,
) -> Result<Response> {
    authorize_collection_records(&state, &principal, table_id).await?;
    let plan = Arc::new(ExportPlan::load(&state, table_id).await?);
    let filename = format!(
        "{}.{}",
        plan.schema.collection.slug,
        if format == Format::Csv { "csv" } else { "json" }
    );
    let cursor = Cursor {
        state,
        plan,
        format,
        after: PostId(0),
        started: false,
        finished: false,
        first_row: true,
        bom,
    };
    let body = Body::from_stream(futures::stream::unfold(cursor, next_chunk));
    let mut response = body.into_response();
    let h = response.headers_mut();
    let content_type = if format == Format::Csv {
        "text/csv; charset=utf-8"
    } else {
        "application/json"
    };
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}
