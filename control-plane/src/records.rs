//! Records (posts) as the server accepts them: one validation path for the post API, file
//! imports and the spreadsheet link. A row becomes a [`Draft`] (values normalised per field
//! type), relations are resolved against their target collection in one batch, and slugs are
//! assigned; problems name the row and column they come from.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use vitrine_shared::ids::{CollectionId, FieldId, PostId};
use vitrine_shared::{
    domain::slugify,
    fields::{
        FieldDef, FieldMeta, FieldOption, FieldType, Normalized, ValueError, is_empty, normalize,
    },
    store::{Collection, Field, NewPost},
};

use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Problem},
};

mod plan;

pub use plan::{
    Action, Outcome, Plan, Planner, WriteMode, Written, plan_drafts, write_drafts, write_plan,
};

pub use vitrine_shared::record_lists::CollectionMeta;

/// A collection with its fields, ready to validate rows.
pub struct Schema {
    pub collection: Collection,
    pub meta: CollectionMeta,
    pub fields: Vec<FieldDef>,
}

/// Turns a stored field row into a definition (unknown types are skipped as unusable).
pub fn field_def(f: &Field) -> Option<FieldDef> {
    Some(FieldDef {
        id: f.id,
        name: f.name.clone(),
        slug: f.slug.clone(),
        kind: FieldType::parse(&f.kind)?,
        required: f.required,
        options: serde_json::from_value::<Vec<FieldOption>>(f.options.0.clone())
            .unwrap_or_default(),
        meta: serde_json::from_value::<FieldMeta>(f.meta.0.clone()).unwrap_or_default(),
    })
}

impl Schema {
    pub async fn load(core: &Core, collection_id: CollectionId) -> Result<Schema, ApiError> {
        let collection = core.store.collection_by_id(collection_id).await?;
        let fields = core
            .store
            .collection_fields(collection_id)
            .await?
            .iter()
            .filter_map(field_def)
            .collect();
        Ok(Schema {
            meta: CollectionMeta::of(&collection),
            collection,
            fields,
        })
    }

    /// The field a column header names: by slug, else by name (case-insensitive).
    pub fn column(&self, header: &str) -> Option<usize> {
        let h = header.trim();
        self.fields.iter().position(|f| f.slug == h).or_else(|| {
            self.fields
                .iter()
                .position(|f| f.name.eq_ignore_ascii_case(h))
        })
    }
}

/// A value refused for its field, at a row: the field's name prefixes the message and fills
/// the `field` parameter.
pub fn value_problem(row: Option<usize>, field: &FieldDef, e: ValueError) -> Problem {
    let mut params = e.params;
    params.insert("field".into(), Value::from(field.name.clone()));
    Problem {
        row,
        column: Some(field.slug.clone()),
        field_id: Some(field.id),
        code: e.code,
        message: format!("{} {}", field.name, e.message),
        params,
    }
}

/// A relation still to resolve: which value slot, which target collection, what reference.
struct PendingRelation {
    field_id: FieldId,
    target: Option<CollectionId>,
    reference: Normalized,
    column: String,
}

/// A validated row before relations and slugs are settled.
pub struct Draft {
    pub row: Option<usize>,
    pub name: String,
    pub slug: String,
    pub created_at: Option<DateTime<Utc>>,
    pub values: Map<String, Value>,
    relations: Vec<PendingRelation>,
}

/// The message listing required fields left empty (spec 1 §5).
pub const REQUIRED_MESSAGE: &str = "Please fill all required fields:";

impl Schema {
    /// Validates one row. `cells` are `(field index, raw value)`; `base` holds the values
    /// already stored (updates keep what is not sent).
    pub fn draft(
        &self,
        row: Option<usize>,
        name: &str,
        slug: &str,
        cells: Vec<(usize, Value)>,
        base: Option<&Map<String, Value>>,
    ) -> Result<Draft, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut values = base.cloned().unwrap_or_default();
        let mut relations = Vec::new();
        for (index, raw) in cells {
            let field = &self.fields[index];
            match normalize(field, &raw) {
                Ok(Normalized::Value(v)) => {
                    values.insert(field.id.to_string(), v);
                }
                Ok(reference) => {
                    values.insert(field.id.to_string(), Value::Null);
                    relations.push(PendingRelation {
                        field_id: field.id,
                        target: field.meta.table,
                        reference,
                        column: field.slug.clone(),
                    });
                }
                Err(e) => problems.push(value_problem(row, field, e)),
            }
        }
        let name = name.trim().chars().take(500).collect::<String>();
        let mut missing: Vec<&FieldDef> = self
            .fields
            .iter()
            .filter(|f| f.required)
            .filter(|f| values.get(&f.id.to_string()).is_none_or(is_empty))
            .filter(|f| !relations.iter().any(|r| r.field_id == f.id))
            .collect();
        missing.dedup_by_key(|f| f.id);
        if self.meta.include_title && name.is_empty() {
            problems.push(Problem::new(
                row,
                Some("name"),
                ErrorCode::TitleRequired,
                "Title is required",
            ));
        }
        if !missing.is_empty() {
            let names: Vec<&str> = missing.iter().map(|f| f.name.as_str()).collect();
            let mut problem = Problem::new(
                row,
                Some(&missing[0].slug),
                ErrorCode::FieldsRequired,
                format!("{REQUIRED_MESSAGE} {}", names.join(", ")),
            )
            .param("fields", names.join(", "));
            problem.field_id = Some(missing[0].id);
            problems.push(problem);
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let slug = slugify(if slug.trim().is_empty() { &name } else { slug });
        Ok(Draft {
            row,
            name,
            slug,
            created_at: None,
            values,
            relations,
        })
    }
}

/// Resolves relation references of all drafts against their targets (ids must exist in the
/// target collection of the same project; slugs are looked up), in one query per target.
pub async fn resolve_relations(
    core: &Core,
    schema: &Schema,
    drafts: &mut [Draft],
) -> Result<Vec<Problem>, ApiError> {
    let mut targets: HashMap<CollectionId, (HashSet<PostId>, bool)> = HashMap::new();
    for d in drafts.iter() {
        for r in &d.relations {
            if let Some(t) = r.target {
                let entry = targets.entry(t).or_default();
                match &r.reference {
                    Normalized::RelationId(id) => {
                        entry.0.insert(*id);
                    }
                    _ => entry.1 = true,
                }
            }
        }
    }
    let mut known_ids: HashMap<CollectionId, HashSet<PostId>> = HashMap::new();
    let mut slugs: HashMap<CollectionId, HashMap<String, PostId>> = HashMap::new();
    for (target, (ids, need_slugs)) in targets {
        // A target outside this project counts as missing, like a post that does not exist.
        match core.store.collection_project_id(target).await {
            Ok(p) if p == schema.collection.project_id => {}
            _ => continue,
        }
        known_ids.insert(target, core.store.existing_post_ids(target, &ids).await?);
        if need_slugs {
            slugs.insert(target, core.store.post_slugs(target).await?);
        }
    }
    let mut problems = Vec::new();
    for d in drafts.iter_mut() {
        for r in std::mem::take(&mut d.relations) {
            let resolved = r.target.and_then(|t| match &r.reference {
                Normalized::RelationId(id) => {
                    known_ids.get(&t).filter(|s| s.contains(id)).map(|_| *id)
                }
                Normalized::RelationSlug(s) => slugs.get(&t).and_then(|m| m.get(s)).copied(),
                Normalized::Value(_) => None,
            });
            match resolved {
                Some(id) => {
                    d.values
                        .insert(r.field_id.to_string(), Value::from(id.get()));
                }
                None => {
                    let mut problem = Problem::new(
                        d.row,
                        Some(&r.column),
                        ErrorCode::RelationNotFound,
                        format!(
                            "{} does not point at a record of the related collection",
                            r.column
                        ),
                    )
                    .param("field", r.column.clone());
                    problem.field_id = Some(r.field_id);
                    problems.push(problem);
                }
            }
        }
    }
    Ok(problems)
}

/// Gives every draft a unique slug. `strict` (imports) reports slugs given explicitly that
/// are already taken; otherwise (and for slugs derived from titles) a numeric suffix is added.
pub fn assign_slugs(
    drafts: &mut [Draft],
    taken: &mut HashSet<String>,
    explicit: &[bool],
    strict: bool,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (d, was_explicit) in drafts.iter_mut().zip(explicit) {
        let base = if d.slug.is_empty() {
            "item".to_string()
        } else {
            d.slug.clone()
        };
        if !taken.contains(&base) {
            taken.insert(base.clone());
            d.slug = base;
            continue;
        }
        if strict && *was_explicit {
            problems.push(
                Problem::new(
                    d.row,
                    Some("slug"),
                    ErrorCode::RecordSlugRepeated,
                    format!("duplicate slug {base:?}"),
                )
                .param("slug", base.clone()),
            );
            continue;
        }
        let slug = (2..)
            .map(|n| format!("{base}-{n}"))
            .find(|s| !taken.contains(s))
            .expect("unbounded");
        taken.insert(slug.clone());
        d.slug = slug;
    }
    problems
}

impl Draft {
    pub fn into_new_post(self, now: DateTime<Utc>) -> NewPost {
        NewPost {
            name: self.name,
            slug: self.slug,
            data: self.values,
            created_at: self.created_at.unwrap_or(now),
        }
    }
}
