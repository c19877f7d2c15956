//! Business users (spec 2 §2 "Business users", §4 access levels, §7 "Business users"): a
//! business administrator lists, creates and edits the members of their own business and
//! their access level. What an access level lets a member see is enforced for every
//! project call by `authz::can_access`.
//!
//! A business administrator never changes the credentials (e-mail, password, administrator
//! role) of a platform administrator or of another business administrator: otherwise one
//! administrator could take over another's account, or a platform administrator's, by
//! setting its password. A new password ends the member's other sessions.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use axum_extra::extract::CookieJar;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use vitrine_shared::ids::{AccountId, BusinessId, ProjectId};
use vitrine_shared::{
    domain::{Email, new_password, required_text},
    store::{NewUser, PasswordChange, Permissions, User},
};

use crate::{
    accounts::auth::{self, CurrentUser},
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    mail::email_confirmation,
    state::AppState,
};

/// A business administrator and their business; others get 403.
pub struct BusinessAdmin {
    pub user: CurrentUser,
    pub business_id: BusinessId,
}

impl axum::extract::FromRequestParts<AppState> for BusinessAdmin {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        match (user.is_business_admin, user.business_id) {
            (true, Some(business_id)) => Ok(BusinessAdmin { user, business_id }),
            _ => Err(ApiError::forbidden(
                ErrorCode::BusinessAdminOnly,
                "Business administrators only",
            )),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BusinessUserView {
    #[schema(value_type = i64)]
    pub id: AccountId,
    pub name: String,
    pub email: String,
    pub is_business_admin: bool,
    pub permissions: Permissions,
    pub created_at: DateTime<Utc>,
    /// Whether the member's address confirmed it takes notification mail.
    pub email_confirmed: bool,
}

impl From<User> for BusinessUserView {
    fn from(u: User) -> Self {
        BusinessUserView {
            id: u.id,
            name: u.name,
            email: u.email,
            is_business_admin: u.is_business_admin,
            permissions: u.permissions.0,
            created_at: u.created_at,
            email_confirmed: u.email_confirmed_at.is_some(),
        }
    }
}

/// `POST /api/business/users[/{id}]`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct BusinessUserInput {
    pub name: String,
    pub email: String,
    /// Required when creating; when editing, empty or absent keeps the current password.
    pub password: Option<String>,
    #[serde(default)]
    pub is_business_admin: bool,
    #[serde(default)]
    pub permissions: Permissions,
}

/// The member `id` of the caller's business; 404 for anyone else.
async fn member(state: &AppState, admin: &BusinessAdmin, id: AccountId) -> Result<User> {
    let user = state.store.user_by_id(id).await?;
    if user.business_id != Some(admin.business_id) {
        return Err(ApiError::NotFound);
    }
    Ok(user)
}

/// The access level (spec 2 §4): an administrator has no project permissions; anyone else has
/// exactly one of all projects, a whitelist or a blacklist, naming the business's projects.
async fn access_level(
    state: &AppState,
    admin: &BusinessAdmin,
    input: &BusinessUserInput,
) -> Result<Permissions> {
    if input.is_business_admin {
        return Ok(Permissions::default());
    }
    let p = &input.permissions;
    let chosen = [
        p.all_projects == Some(true),
        p.projects_whitelist.is_some(),
        p.projects_blacklist.is_some(),
    ];
    if chosen.iter().filter(|c| **c).count() != 1 {
        return Err(ApiError::invalid(
            "permissions",
            ErrorCode::PermissionsInvalid,
            "Choose one access level: admin, all_projects, projects_whitelist or projects_blacklist",
        ));
    }
    let ours = state.store.business_project_ids(admin.business_id).await?;
    let listed = p
        .projects_whitelist
        .iter()
        .chain(&p.projects_blacklist)
        .flatten();
    if let Some(unknown) = listed.clone().find(|id| !ours.contains(id)) {
        return Err(ApiError::invalid(
            "permissions",
            ErrorCode::UnknownBusinessProject,
            format!("Project {unknown} is not one of the business's projects"),
        )
        .param("id", unknown.get()));
    }
    let dedup = |v: &Option<Vec<ProjectId>>| {
        v.as_ref().map(|v| {
            let mut v = v.clone();
            v.sort_unstable();
            v.dedup();
            v
        })
    };
    Ok(Permissions {
        all_projects: (p.all_projects == Some(true)).then_some(true),
        projects_whitelist: dedup(&p.projects_whitelist),
        projects_blacklist: dedup(&p.projects_blacklist),
    })
}

#[utoipa::path(get, path = "/api/business/users", tag = "business",
    responses((status = 200, body = Vec<BusinessUserView>), (status = 403, body = ErrorBody)))]
pub async fn list_business_users(
    State(state): State<AppState>,
    admin: BusinessAdmin,
) -> Result<ApiJson<Vec<BusinessUserView>>> {
    Ok(ApiJson(
        state
            .store
            .business_users(admin.business_id)
            .await?
            .into_iter()
            .map(BusinessUserView::from)
            .collect(),
    ))
}

#[utoipa::path(get, path = "/api/business/users/{id}", tag = "business",
    params(("id" = i64, Path, description = "User id")),
    responses((status = 200, body = BusinessUserView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_business_user(
    State(state): State<AppState>,
    admin: BusinessAdmin,
    ApiPath(id): ApiPath<AccountId>,
) -> Result<ApiJson<BusinessUserView>> {
    Ok(ApiJson(member(&state, &admin, id).await?.into()))
}

/// A member's name: required, 120 characters at most.
fn member_name(input: &BusinessUserInput) -> Result<String> {
    Ok(required_text(
        "name",
        Some(&input.name),
        120,
        ErrorCode::Required,
        "Name is required",
    )?)
}

#[utoipa::path(post, path = "/api/business/users", tag = "business", request_body = BusinessUserInput,
    responses((status = 201, body = BusinessUserView), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_business_user(
    State(state): State<AppState>,
    admin: BusinessAdmin,
    ApiJson(input): ApiJson<BusinessUserInput>,
) -> Result<impl IntoResponse> {
    let name = member_name(&input)?;
    let email = Email::parse(&input.email)?;
    let password = new_password(input.password.as_deref().unwrap_or(""))?;
    let permissions = access_level(&state, &admin, &input).await?;
    let hash = auth::hash_password(password).await?;
    let user = state
        .store
        .insert_business_member(
            &NewUser {
                name: &name,
                email: email.as_str(),
                password_hash: &hash,
                language: admin.user.language,
                is_admin: false,
            },
            admin.business_id,
            input.is_business_admin,
            &permissions,
        )
        .await?;
    // A member's address starts unconfirmed: it gets its link, and no notification mail
    // until it is opened (`email_confirmation`).
    email_confirmation::request(&state.mail, &user, false).await?;
    Ok((StatusCode::CREATED, ApiJson(BusinessUserView::from(user))))
}

#[utoipa::path(post, path = "/api/business/users/{id}", tag = "business", request_body = BusinessUserInput,
    params(("id" = i64, Path, description = "User id")),
    responses((status = 200, body = BusinessUserView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_business_user(
    State(state): State<AppState>,
    admin: BusinessAdmin,
    jar: CookieJar,
    ApiPath(id): ApiPath<AccountId>,
    ApiJson(input): ApiJson<BusinessUserInput>,
) -> Result<ApiJson<BusinessUserView>> {
    let current = member(&state, &admin, id).await?;
    let name = member_name(&input)?;
    let email = Email::parse(&input.email)?;
    let password = match input.password.as_deref() {
        None | Some("") => None,
        Some(p) => Some(new_password(p)?),
    };
    let itself = current.id == admin.user.id;
    let credentials_change = email.as_str() != current.email
        || password.is_some()
        || input.is_business_admin != current.is_business_admin;
    if !itself && (current.is_admin || current.is_business_admin) && credentials_change {
        return Err(ApiError::forbidden(
            ErrorCode::OtherAdminAccount,
            "You cannot change another administrator's e-mail, password or role",
        ));
    }
    let permissions = access_level(&state, &admin, &input).await?;
    if itself && !input.is_business_admin {
        return Err(ApiError::conflict(
            "is_business_admin",
            ErrorCode::OwnAdminAccess,
            "You cannot remove your own administrator access",
        ));
    }
    let hash = match password {
        Some(p) => Some(auth::hash_password(p).await?),
        None => None,
    };
    // Changing one's own password keeps the session doing it; every other one ends.
    let keep = itself.then(|| auth::session_hash(&jar)).flatten();
    state
        .store
        .update_user_identity(
            id,
            &name,
            email.as_str(),
            hash.as_deref().map(|hash| PasswordChange {
                hash,
                keep_session: keep.as_deref(),
            }),
        )
        .await?;
    state
        .store
        .set_user_business(
            id,
            Some(admin.business_id),
            input.is_business_admin,
            &permissions,
        )
        .await?;
    let user = state.store.user_by_id(id).await?;
    // A new address is unconfirmed again (the store cleared it) and gets its own link.
    if email.as_str() != current.email {
        email_confirmation::request(&state.mail, &user, false).await?;
    }
    Ok(ApiJson(user.into()))
}
