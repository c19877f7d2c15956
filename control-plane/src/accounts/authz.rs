//! The authorization policy: the one function that decides whether a user may see (and so
//! manage) a project, and the one entry point every project-scoped handler calls.
//!
//! A project the caller may not see answers 404, exactly like one that does not exist, so
//! ids cannot be probed.

use axum::{
    extract::{FromRef, FromRequestParts},
    http::request::Parts,
};
use vitrine_shared::ids::{CollectionId, ProjectId};
use vitrine_shared::store::{Project, ProjectOwner, User};

use crate::{
    accounts::auth::CurrentUser,
    base::Core,
    error::{ApiError, ErrorCode, Result},
};

/// Who is calling a collections route: a signed-in user, or the holder of a project's
/// client-panel token (`/admin?token=…`), who may reach that project's records and nothing else.
#[derive(Debug, Clone)]
pub enum Principal {
    User(Box<CurrentUser>),
    Client { project_id: ProjectId },
}

/// Header carrying a client-panel token. Only the header: a token in a URL ends up in
/// browser history, server logs and `Referer`s, and the client panel fetches everything
/// (exports included) itself, so `?client_token=` is refused with 400 `token_in_query`.
pub const CLIENT_TOKEN_HEADER: &str = "x-client-token";

fn client_token(parts: &Parts) -> Result<Option<String>> {
    let query = parts.uri.query().unwrap_or("");
    if url::form_urlencoded::parse(query.as_bytes()).any(|(k, _)| k == "client_token") {
        return Err(ApiError::refused(
            axum::http::StatusCode::BAD_REQUEST,
            ErrorCode::TokenInQuery,
            "Send the client-panel token in the X-Client-Token header, not in the address",
        )
        .at("client_token"));
    }
    Ok(parts
        .headers
        .get(CLIENT_TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string))
}

impl<S: Send + Sync> FromRequestParts<S> for Principal
where
    Core: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        if let Some(token) = client_token(parts)? {
            // A wrong token answers 404: it names nothing that exists.
            return match Core::from_ref(state)
                .store
                .project_id_by_token(token.trim())
                .await?
            {
                Some(project_id) if !token.trim().is_empty() => {
                    Ok(Principal::Client { project_id })
                }
                _ => Err(ApiError::NotFound),
            };
        }
        Ok(Principal::User(Box::new(
            CurrentUser::from_request_parts(parts, state).await?,
        )))
    }
}

impl Principal {
    /// The user, for calls that are not open to client tokens.
    pub fn user(&self) -> Result<&CurrentUser> {
        match self {
            Principal::User(u) => Ok(u),
            Principal::Client { .. } => Err(ApiError::NotFound),
        }
    }
}

/// For calls that name a collection: 404 unless `user` may see its project. Returns the project id.
pub async fn authorize_collection(
    core: &Core,
    user: &User,
    collection_id: CollectionId,
) -> Result<ProjectId> {
    let project_id = core.store.collection_project_id(collection_id).await?;
    authorize_project(core, user, project_id).await?;
    Ok(project_id)
}

/// For records calls that name a collection, open to client-panel tokens too. Returns the project id.
pub async fn authorize_collection_records(
    core: &Core,
    principal: &Principal,
    collection_id: CollectionId,
) -> Result<ProjectId> {
    let project_id = core.store.collection_project_id(collection_id).await?;
    authorize_records(core, principal, project_id).await?;
    Ok(project_id)
}

/// The check every records call makes: 404 unless the principal may reach `project_id`'s
/// collections (a user through [`can_access`], a client token for its own project only).
pub async fn authorize_records(
    core: &Core,
    principal: &Principal,
    project_id: ProjectId,
) -> Result<()> {
    match principal {
        Principal::User(user) => authorize_project(core, user, project_id).await.map(|_| ()),
        Principal::Client { project_id: own } if *own == project_id => Ok(()),
        Principal::Client { .. } => Err(ApiError::NotFound),
    }
}

/// May `user` see and manage the project owned as `owner` describes?
///
/// - platform admins see every project;
/// - owners see their own;
/// - inside a business: business admins see all of the business's projects; other members
///   see them according to their access level (all projects, a whitelist, or a blacklist);
///   a member with no access level sees only their own.
pub fn can_access(user: &User, owner: &ProjectOwner) -> bool {
    if user.is_admin || owner.owner_id == user.id {
        return true;
    }
    let same_business =
        matches!((user.business_id, owner.owner_business_id), (Some(a), Some(b)) if a == b);
    if !same_business {
        return false;
    }
    if user.is_business_admin {
        return true;
    }
    let p = &user.permissions.0;
    if p.all_projects == Some(true) {
        return true;
    }
    if let Some(list) = &p.projects_whitelist {
        return list.contains(&owner.project_id);
    }
    if let Some(list) = &p.projects_blacklist {
        return !list.contains(&owner.project_id);
    }
    false
}

/// The check every project-scoped call makes first: 404 unless `user` may see `project_id`.
pub async fn authorize_project(
    core: &Core,
    user: &User,
    project_id: ProjectId,
) -> Result<ProjectOwner> {
    let owner = core.store.project_owner(project_id).await?;
    if can_access(user, &owner) {
        Ok(owner)
    } else {
        Err(ApiError::NotFound)
    }
}

/// The project itself, for the calls that read or change it: [`authorize_project`]'s check,
/// then the row.
pub async fn authorized_project(
    core: &Core,
    user: &User,
    project_id: ProjectId,
) -> Result<Project> {
    authorize_project(core, user, project_id).await?;
    Ok(core.store.project_by_id(project_id).await?)
}

/// The projects `user` may see, most recently updated first. The same policy filters the list.
pub async fn visible_projects(core: &Core, user: &User) -> Result<Vec<Project>> {
    let candidates = core
        .store
        .projects_candidates(user.id, user.business_id)
        .await?;
    Ok(candidates
        .into_iter()
        .filter(|(_, owner)| can_access(user, owner))
        .map(|(p, _)| p)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;
    use vitrine_shared::{
        billing::Plan,
        ids::{AccountId, BusinessId},
        store::{Json, Permissions},
    };

    fn user(id: AccountId, business: Option<BusinessId>) -> User {
        User {
            id,
            name: "u".into(),
            email: format!("u{id}@example.com"),
            password_hash: String::new(),
            language: vitrine_shared::language::Language::PtBr,
            currency: vitrine_shared::money::Currency::Brl,
            business_id: business,
            is_admin: false,
            is_business_admin: false,
            permissions: Json(Permissions::default()),
            plan: Plan::Basic,
            external_id: None,
            created_at: Utc::now(),
            updated_at: Utc::now(),
            email_confirmed_at: None,
        }
    }

    fn project(id: ProjectId, owner: AccountId, business: Option<BusinessId>) -> ProjectOwner {
        ProjectOwner {
            project_id: id,
            owner_id: owner,
            owner_business_id: business,
        }
    }

    #[test]
    fn policy_table() {
        let mut admin = user(AccountId(1), None);
        admin.is_admin = true;
        let stranger = user(AccountId(2), None);
        let owner = user(AccountId(3), Some(BusinessId(10)));
        let mut biz_admin = user(AccountId(4), Some(BusinessId(10)));
        biz_admin.is_business_admin = true;
        let mut all = user(AccountId(5), Some(BusinessId(10)));
        all.permissions.0.all_projects = Some(true);
        let mut white = user(AccountId(6), Some(BusinessId(10)));
        white.permissions.0.projects_whitelist = Some(vec![ProjectId(100)]);
        let mut black = user(AccountId(7), Some(BusinessId(10)));
        black.permissions.0.projects_blacklist = Some(vec![ProjectId(100)]);
        let plain_member = user(AccountId(8), Some(BusinessId(10)));
        let mut other_biz_admin = user(AccountId(9), Some(BusinessId(11)));
        other_biz_admin.is_business_admin = true;
        let mut other_biz_all = user(AccountId(12), Some(BusinessId(11)));
        other_biz_all.permissions.0.all_projects = Some(true);

        let p100 = project(ProjectId(100), AccountId(3), Some(BusinessId(10)));
        let p101 = project(ProjectId(101), AccountId(3), Some(BusinessId(10)));
        let solo = project(ProjectId(200), AccountId(2), None);

        let cases: &[(&User, &ProjectOwner, bool, &str)] = &[
            (&admin, &p100, true, "admin sees everything"),
            (
                &admin,
                &solo,
                true,
                "admin sees projects outside businesses",
            ),
            (&stranger, &p100, false, "strangers see nothing"),
            (&stranger, &solo, true, "owners see their own"),
            (&owner, &p100, true, "owner inside a business"),
            (
                &owner,
                &solo,
                false,
                "a business member does not see outsiders",
            ),
            (
                &biz_admin,
                &p100,
                true,
                "business admin sees the business's projects",
            ),
            (
                &biz_admin,
                &solo,
                false,
                "business admin sees nothing outside it",
            ),
            (&all, &p101, true, "all_projects"),
            (&white, &p100, true, "whitelisted project"),
            (&white, &p101, false, "project not on the whitelist"),
            (&black, &p100, false, "blacklisted project"),
            (&black, &p101, true, "project not on the blacklist"),
            (
                &plain_member,
                &p100,
                false,
                "a member without an access level sees only their own",
            ),
            (&other_biz_admin, &p100, false, "another business's admin"),
            (
                &other_biz_all,
                &p100,
                false,
                "all_projects does not cross businesses",
            ),
        ];
        for (u, p, want, why) in cases {
            assert_eq!(can_access(u, p), *want, "{why}");
        }
    }
}
