//! Writing validated drafts: what each row will do (insert, update, leave unchanged, or be
//! refused with its problems) is planned against the database first, so an import's dry run
//! answers exactly what the real one writes; then the plan is written in one transaction, or
//! nothing is when any row is refused.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use vitrine_shared::ids::{CollectionId, PostId};
use vitrine_shared::store::{NewPost, PostUpdate};

use super::{Draft, Schema, assign_slugs, resolve_relations};
use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Problem},
};

/// How records are written: by slug, updating the stored record a slug names ("upsert", the
/// default of imports and spreadsheets, so that a file exported and edited goes back in), or
/// only inserted (a slug already stored is then a problem, or gets a suffix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WriteMode {
    #[default]
    Upsert,
    Insert,
}

/// How many records a write inserted and updated, and how many rows named a stored record
/// without changing it (those are not written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Written {
    pub inserted: usize,
    pub updated: usize,
    pub unchanged: usize,
}

/// What a row does when the plan is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Insert,
    Update,
    Unchanged,
}

/// One planned row as it will be stored: its values are the ones the row carries (keyed by
/// field id), normalised, relations resolved.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub row: Option<usize>,
    pub action: Action,
    pub name: String,
    pub slug: String,
    pub values: Map<String, Value>,
}

/// Drafts planned against the stored records: what to insert and update, and the rows refused.
#[derive(Debug, Default)]
pub struct Plan {
    inserts: Vec<NewPost>,
    updates: Vec<PostUpdate>,
    /// Rows that name a stored record and change nothing in it.
    pub unchanged: usize,
    /// The planned rows numbered up to the `keep` given to [`plan_drafts`], in row order.
    pub outcomes: Vec<Outcome>,
    /// Why rows are refused (relations that point nowhere, repeated slugs).
    pub problems: Vec<Problem>,
}

impl Plan {
    pub fn inserted(&self) -> usize {
        self.inserts.len()
    }

    pub fn updated(&self) -> usize {
        self.updates.len()
    }
}

/// Plans the drafts: relations and slugs are resolved against the database, and a row refused
/// for either is left out with its problems.
///
/// With [`WriteMode::Upsert`], a draft whose slug names a stored record of the collection
/// updates it (its name and the fields the draft carries; the others keep their values), or
/// leaves it unchanged when that changes nothing. The rest are inserted. `strict` (imports): a
/// slug given twice in the file, or (inserting only) a given slug already stored, is a problem
/// at its row; else (spreadsheets) it gets a `-2` suffix. A record without a slug always gets
/// a new one. `keep`: how many first rows' outcomes to keep, for a preview.
pub async fn plan_drafts(
    core: &Core,
    schema: &Schema,
    mut drafts: Vec<Draft>,
    explicit: Vec<bool>,
    mode: WriteMode,
    strict: bool,
    keep: usize,
) -> Result<Plan, ApiError> {
    let mut problems = resolve_relations(core, schema, &mut drafts).await?;
    let refused: HashSet<Option<usize>> = problems.iter().map(|p| p.row).collect();
    let collection = schema.collection.id;
    let stored = core.store.post_slugs(collection).await?;
    let mut updates = Vec::new();
    let mut inserts = Vec::new();
    let mut inserts_explicit = Vec::new();
    let mut seen = HashSet::new();
    for (d, given) in drafts.into_iter().zip(explicit) {
        if refused.contains(&d.row) {
            continue;
        }
        if given && strict && !seen.insert(d.slug.clone()) {
            problems.push(
                Problem::new(
                    d.row,
                    Some("slug"),
                    ErrorCode::RecordSlugRepeated,
                    format!("duplicate slug {:?}", d.slug),
                )
                .param("slug", d.slug.clone()),
            );
            continue;
        }
        match stored.get(&d.slug) {
            Some(id) if given && mode == WriteMode::Upsert => updates.push((*id, d)),
            _ => {
                inserts.push(d);
                inserts_explicit.push(given);
            }
        }
    }
    let mut taken: HashSet<String> = stored.keys().cloned().collect();
    let slug_problems = assign_slugs(&mut inserts, &mut taken, &inserts_explicit, strict);
    let refused: HashSet<Option<usize>> = slug_problems.iter().map(|p| p.row).collect();
    problems.extend(slug_problems);
    inserts.retain(|d| !refused.contains(&d.row));

    let wanted = |row: Option<usize>| row.is_some_and(|r| r <= keep);
    let mut outcomes: Vec<Outcome> = inserts
        .iter()
        .filter(|d| wanted(d.row))
        .map(|d| Outcome {
            row: d.row,
            action: Action::Insert,
            name: d.name.clone(),
            slug: d.slug.clone(),
            values: d.values.clone(),
        })
        .collect();
    let mut plan = Plan::default();
    for (update, d) in merge_stored(core, collection, updates).await? {
        let action = if update.is_some() {
            Action::Update
        } else {
            Action::Unchanged
        };
        if wanted(d.row) {
            outcomes.push(Outcome {
                row: d.row,
                action,
                name: d.name,
                slug: d.slug,
                values: d.values,
            });
        }
        match update {
            Some(u) => plan.updates.push(u),
            None => plan.unchanged += 1,
        }
    }
    outcomes.sort_by_key(|o| o.row);
    let ts = vitrine_shared::store::now();
    plan.inserts = inserts.into_iter().map(|d| d.into_new_post(ts)).collect();
    plan.outcomes = outcomes;
    plan.problems = problems;
    Ok(plan)
}

/// Writes a plan in one transaction; a plan with refused rows writes nothing and answers
/// their problems.
pub async fn write_plan(core: &Core, schema: &Schema, plan: Plan) -> Result<Written, ApiError> {
    if !plan.problems.is_empty() {
        return Err(ApiError::from(plan.problems));
    }
    if !plan.inserts.is_empty() || !plan.updates.is_empty() {
        core.store
            .write_posts(
                schema.collection.id,
                &plan.inserts,
                &plan.updates,
                core.settings.records_per_account,
            )
            .await?;
    }
    Ok(Written {
        inserted: plan.inserts.len(),
        updated: plan.updates.len(),
        unchanged: plan.unchanged,
    })
}

/// Plans the drafts and writes them (see [`plan_drafts`]); any problem writes nothing.
pub async fn write_drafts(
    core: &Core,
    schema: &Schema,
    drafts: Vec<Draft>,
    explicit: Vec<bool>,
    mode: WriteMode,
    strict: bool,
) -> Result<Written, ApiError> {
    let plan = plan_drafts(core, schema, drafts, explicit, mode, strict, 0).await?;
    write_plan(core, schema, plan).await
}

/// Each update with the stored values of the fields its draft does not carry, or `None` when
/// it changes neither the name nor any value; read in keyset pages of the collection (one
/// pass, however many records are updated).
async fn merge_stored(
    core: &Core,
    collection: CollectionId,
    updates: Vec<(PostId, Draft)>,
) -> Result<Vec<(Option<PostUpdate>, Draft)>, ApiError> {
    if updates.is_empty() {
        return Ok(Vec::new());
    }
    let wanted: HashSet<PostId> = updates.iter().map(|(id, _)| *id).collect();
    let mut stored = HashMap::with_capacity(wanted.len());
    let mut after = PostId(0);
    loop {
        let page = core.store.posts_after(collection, after, 1000).await?;
        let Some(last) = page.last() else { break };
        after = last.id;
        stored.extend(
            page.into_iter()
                .filter(|p| wanted.contains(&p.id))
                .map(|p| (p.id, (p.name, p.data.0))),
        );
    }
    Ok(updates
        .into_iter()
        .map(|(id, d)| {
            let (name, before) = stored.remove(&id).unwrap_or_default();
            let mut data = before.clone();
            data.extend(d.values.clone());
            let changed = name != d.name || data != before;
            let update = changed.then(|| PostUpdate {
                id,
                name: d.name.clone(),
                data,
            });
            (update, d)
        })
        .collect())
}
