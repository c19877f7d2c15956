//! Rows as the store returns them. Server-owned columns (flags, verification, publish state)
//! are plain fields here; what a client may change is decided in the control plane.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::types::Json;
use utoipa::ToSchema;

use crate::ids::{AccountId, BusinessId, CollectionId, DeployId, PageId, ProjectId, TemplateId};
use crate::language::Language;
use crate::money::Currency;

/// A user's project access inside their business (spec 2 §3): one of the three entries,
/// or none (own projects only). Admins and business admins have none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Permissions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_projects: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<i64>>)]
    pub projects_whitelist: Option<Vec<ProjectId>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<i64>>)]
    pub projects_blacklist: Option<Vec<ProjectId>>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct User {
    pub id: AccountId,
    pub name: String,
    pub email: String,
    pub password_hash: String,
    pub language: Language,
    pub currency: Currency,
    pub business_id: Option<BusinessId>,
    pub is_admin: bool,
    pub is_business_admin: bool,
    pub permissions: Json<Permissions>,
    pub plan: crate::billing::Plan,
    pub external_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// When the sign-in address confirmed it takes notification mail; `None`: not yet, and
    /// no form notification goes to it.
    pub email_confirmed_at: Option<DateTime<Utc>>,
}

/// A user signed in through a session, and who is impersonating them, if anyone.
#[derive(Debug, Clone)]
pub struct SessionUser {
    pub user: User,
    pub impersonator_id: Option<AccountId>,
}

/// What a new account is made of; flags are set only by the seed and by admins.
#[derive(Debug, Clone)]
pub struct NewUser<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub language: Language,
    pub is_admin: bool,
}

/// A new password for an account, and the session (its stored hash) that stays signed in:
/// the one making the change, when someone changes their own; every other session ends.
#[derive(Debug, Clone, Copy)]
pub struct PasswordChange<'a> {
    pub hash: &'a str,
    pub keep_session: Option<&'a str>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Project {
    pub id: ProjectId,
    pub user_id: AccountId,
    pub name: String,
    pub slug: String,
    pub domain: Option<String>,
    pub token: String,
    pub uuid: String,
    pub is_published: bool,
    pub thumbnail: Option<String>,
    pub thumbnail_timestamp: Option<i64>,
    pub meta: Json<Value>,
    pub verified: bool,
    pub verified_domain: Option<String>,
    pub verified_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The live deploy (server-owned; set only by publishing and rollback).
    pub active_deploy_id: Option<DeployId>,
}

/// The owner side of a project, which the authorization policy needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct ProjectOwner {
    pub project_id: ProjectId,
    pub owner_id: AccountId,
    pub owner_business_id: Option<BusinessId>,
}

impl ProjectOwner {
    /// The account the project's shared work counts against (a business counts as one).
    pub fn account(&self) -> crate::account::Account {
        crate::account::Account::of(self.owner_id, self.owner_business_id)
    }
}

/// Fields of a project a client may change, already validated. The custom domain is not
/// among them: it is proven, not set (see `store::domains`).
#[derive(Debug, Clone, Default)]
pub struct ProjectChanges {
    pub name: Option<String>,
    pub slug: Option<String>,
    pub meta: Option<Value>,
}

// A page as the store holds it and the API shows it (`PageView` in the OpenAPI document).
// Plain comments: a doc comment would become the schema's description.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
#[schema(as = PageView)]
pub struct Page {
    #[schema(value_type = i64)]
    pub id: PageId,
    #[schema(value_type = i64)]
    pub project_id: ProjectId,
    pub name: String,
    pub slug: String,
    pub description: String,
    pub image: String,
    #[schema(value_type = Object)]
    pub meta: Json<Value>,
    pub output: String,
    #[schema(value_type = Vec<Object>)]
    pub blocks: Json<Value>,
    #[schema(required, value_type = Option<i64>)]
    pub table_id: Option<CollectionId>,
    // Whether the slug is `/`: the store's statements select it beside the columns.
    pub is_home: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct PageSummary {
    #[schema(value_type = i64)]
    pub id: PageId,
    pub name: String,
    pub slug: String,
    #[schema(required, value_type = Option<i64>)]
    pub table_id: Option<CollectionId>,
    /// Whether the slug is `/`, as on a page (`PageView`).
    pub is_home: bool,
    pub updated_at: DateTime<Utc>,
}

/// Changes to a page, already validated.
#[derive(Debug, Clone, Default)]
pub struct PageChanges {
    pub name: Option<String>,
    pub slug: Option<String>,
    pub description: Option<String>,
    pub image: Option<String>,
    pub meta: Option<Value>,
    pub output: Option<String>,
    pub blocks: Option<Value>,
    pub table_id: Option<Option<CollectionId>>,
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct CollectionSummary {
    #[schema(value_type = i64)]
    pub id: CollectionId,
    pub name: String,
    pub slug: String,
}

// A template as the store holds it and the API shows it (`TemplateView` in the OpenAPI
// document: the spec's `order`, and `is_published` as `'1'` or `'0'`; no timestamps). Plain
// comments: a doc comment would become the schema's description.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
#[schema(as = TemplateView)]
pub struct Template {
    #[schema(value_type = i64)]
    pub id: TemplateId,
    pub name: String,
    pub description: String,
    pub category: String,
    #[serde(rename = "order")]
    pub sort_order: i64,
    /// '1' or '0', as the spec writes it.
    #[serde(serialize_with = "one_or_zero")]
    #[schema(value_type = OneOrZero)]
    pub is_published: bool,
    #[schema(required)]
    pub thumbnail: Option<String>,
    #[serde(skip)]
    pub created_at: DateTime<Utc>,
    #[serde(skip)]
    pub updated_at: DateTime<Utc>,
}

/// A flag as the spec writes it in answers: `"1"` or `"0"`.
pub fn one_or_zero<S: serde::Serializer>(flag: &bool, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(if *flag { "1" } else { "0" })
}

/// The document's type of a flag written by [`one_or_zero`]
/// (`#[schema(value_type = OneOrZero)]`): the text `"1"` or `"0"`.
pub struct OneOrZero;

impl utoipa::PartialSchema for OneOrZero {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(["1", "0"]))
            .into()
    }
}

impl ToSchema for OneOrZero {}
