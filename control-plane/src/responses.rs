//! What the API returns: the spec's shapes, built from store rows. Server-owned values
//! (verification, publish state, flags) appear here and nowhere in request types.

use crate::{
    accounts::auth::CurrentUser, base::Core, domains::report::DnsReport, records::CollectionMeta,
};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use vitrine_shared::ids::{AccountId, BusinessId, CollectionId, FieldId, ProjectId};
use vitrine_shared::{
    Settings,
    billing::Plan,
    language::Language,
    money::Currency,
    store::{
        CertificateStatus, Collection, CollectionSummary, DomainClaim, Field, OneOrZero,
        PageSummary, Permissions, Project, Transaction, User, one_or_zero,
    },
};

#[derive(Debug, Serialize, ToSchema)]
pub struct UserView {
    #[schema(value_type = i64)]
    pub id: AccountId,
    pub name: String,
    pub email: String,
    pub language: Language,
    pub currency: Currency,
    #[schema(value_type = Option<i64>)]
    pub business_id: Option<BusinessId>,
    pub is_admin: bool,
    pub is_business_admin: bool,
    pub permissions: Permissions,
    pub created_at: DateTime<Utc>,
    /// The administrator's id while they are signed in as this user.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<i64>)]
    pub impersonator_id: Option<AccountId>,
    /// The business's plan for its members, else the user's own.
    pub plan: Plan,
    /// Whether a card is on file with the payment provider.
    pub has_card: bool,
    /// Whether the sign-in address confirmed it takes notification mail (form submissions);
    /// until then none is sent to it (`POST /api/user/email-confirmation` resends the link).
    pub email_confirmed: bool,
}

impl UserView {
    pub fn new(u: &User, impersonator_id: Option<AccountId>) -> Self {
        UserView {
            id: u.id,
            name: u.name.clone(),
            email: u.email.clone(),
            language: u.language,
            currency: u.currency,
            business_id: u.business_id,
            is_admin: u.is_admin,
            is_business_admin: u.is_business_admin,
            permissions: u.permissions.0.clone(),
            created_at: u.created_at,
            impersonator_id,
            plan: u.plan,
            has_card: u.external_id.is_some(),
            email_confirmed: u.email_confirmed_at.is_some(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProjectView {
    #[schema(value_type = i64)]
    pub id: ProjectId,
    pub name: String,
    pub slug: String,
    /// The custom domain as the owner last set it: the pending one while it waits for its
    /// proof (`domain_check`), else the verified one.
    pub domain: Option<String>,
    /// The value of the TXT record `_vitrine-challenge.<domain>` that proves a domain is this
    /// project's. Public: it is published in DNS.
    pub domain_token: String,
    pub token: String,
    pub uuid: String,
    pub is_published: bool,
    pub thumbnail: Option<String>,
    pub thumbnail_timestamp: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Where the site answers under the platform domain.
    pub preview_url: String,
    /// description, fonts, header, footer, favicon, integrations; plus the server-owned
    /// verified, verifiedDomain and verifiedTimestamp.
    #[schema(value_type = Object)]
    pub meta: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<Vec<PageSummary>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tables: Option<Vec<CollectionSummary>>,
    /// The verified domain's certificate: null when none was ordered yet. Only in the
    /// single-project answers, never in the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<CertificateStatus>)]
    pub certificate: Option<Option<CertificateStatus>>,
    /// The pending domain and its checks: null when none waits. In the list and the
    /// single-project answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<DomainCheckView>)]
    pub domain_check: Option<Option<DomainCheckView>>,
}

impl ProjectView {
    pub fn new(p: &Project, settings: &Settings) -> Self {
        let mut meta = match &p.meta.0 {
            Value::Object(m) => m.clone(),
            _ => Map::new(),
        };
        meta.insert("verified".into(), Value::Bool(p.verified));
        meta.insert(
            "verifiedDomain".into(),
            p.verified_domain
                .clone()
                .map(Value::String)
                .unwrap_or(Value::Null),
        );
        meta.insert(
            "verifiedTimestamp".into(),
            p.verified_at
                .map(|t| Value::String(t.to_rfc3339()))
                .unwrap_or(Value::Null),
        );
        ProjectView {
            id: p.id,
            name: p.name.clone(),
            slug: p.slug.clone(),
            domain: p.domain.clone(),
            domain_token: vitrine_shared::domain::challenge_value(&p.uuid),
            token: p.token.clone(),
            uuid: p.uuid.clone(),
            is_published: p.is_published,
            thumbnail: p.thumbnail.clone(),
            thumbnail_timestamp: p.thumbnail_timestamp,
            created_at: p.created_at,
            updated_at: p.updated_at,
            preview_url: settings.preview_url(&p.slug),
            meta: Value::Object(meta),
            pages: None,
            tables: None,
            certificate: None,
            domain_check: None,
        }
    }

    pub fn with_content(mut self, pages: Vec<PageSummary>, tables: Vec<CollectionSummary>) -> Self {
        self.pages = Some(pages);
        self.tables = Some(tables);
        self
    }

    pub fn with_certificate(mut self, certificate: Option<CertificateStatus>) -> Self {
        self.certificate = Some(certificate);
        self
    }

    /// The pending domain, which is then the `domain` shown.
    pub fn with_domain_claim(mut self, claim: Option<DomainClaim>) -> Self {
        if let Some(c) = &claim {
            self.domain = Some(c.domain.clone());
        }
        self.domain_check = Some(claim.map(DomainCheckView::from));
        self
    }
}

/// A pending domain: asked for, not proven yet, and what its last check found.
#[derive(Debug, Serialize, ToSchema)]
pub struct DomainCheckView {
    #[serde(flatten)]
    pub claim: DomainClaim,
    /// What the last check found, each finding a code the dashboard translates.
    pub last_result: Option<DnsReport>,
}

impl From<DomainClaim> for DomainCheckView {
    fn from(claim: DomainClaim) -> Self {
        let last_result = claim.last_result.as_deref().map(DnsReport::from_stored);
        DomainCheckView { claim, last_result }
    }
}

/// One ledger entry: charges are negative, payments positive, in minor units.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Transaction)]
pub struct TransactionView {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub description: String,
    pub amount: i64,
    pub currency: Currency,
}

impl From<&Transaction> for TransactionView {
    fn from(t: &Transaction) -> Self {
        TransactionView {
            id: t.id,
            created_at: t.created_at,
            description: t.description.clone(),
            amount: t.amount.minor(),
            currency: t.amount.currency(),
        }
    }
}

/// A plain `{"message": …}` answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct MessageView {
    pub message: String,
}

impl MessageView {
    pub fn new(m: impl Into<String>) -> Self {
        MessageView { message: m.into() }
    }
}

/// How many rows a bulk deletion removed.
#[derive(Debug, Serialize, ToSchema)]
pub struct Deleted {
    pub deleted: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FieldView {
    #[schema(value_type = i64)]
    pub id: FieldId,
    #[schema(value_type = i64)]
    pub table_id: CollectionId,
    pub name: String,
    pub slug: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// '1' when required.
    #[serde(serialize_with = "one_or_zero")]
    #[schema(value_type = OneOrZero)]
    pub required: bool,
    #[schema(value_type = Vec<Object>)]
    pub options: Value,
    #[schema(value_type = Object)]
    pub meta: Value,
    pub order: i64,
}

impl From<&Field> for FieldView {
    fn from(f: &Field) -> Self {
        FieldView {
            id: f.id,
            table_id: f.collection_id,
            name: f.name.clone(),
            slug: f.slug.clone(),
            kind: f.kind.clone(),
            required: f.required,
            options: f.options.0.clone(),
            meta: f.meta.0.clone(),
            order: f.position,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TableView {
    #[schema(value_type = i64)]
    pub id: CollectionId,
    #[schema(value_type = i64)]
    pub project_id: ProjectId,
    pub name: String,
    pub slug: String,
    pub meta: CollectionMeta,
    pub fields: Vec<FieldView>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl TableView {
    pub fn new(c: &Collection, fields: &[Field]) -> Self {
        TableView {
            id: c.id,
            project_id: c.project_id,
            name: c.name.clone(),
            slug: c.slug.clone(),
            meta: CollectionMeta::of(c),
            fields: fields.iter().map(FieldView::from).collect(),
            created_at: c.created_at,
            updated_at: c.updated_at,
        }
    }
}

/// The user as `GET /api/user` shows them, with their effective plan.
pub async fn user_view(core: &Core, user: &CurrentUser) -> crate::error::Result<UserView> {
    let mut view = UserView::new(user, user.impersonator_id);
    view.plan = core.store.plan_of(user).await?;
    Ok(view)
}
