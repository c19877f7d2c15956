//! Accounts and projects written straight to the store, for tests and benchmarks that need a
//! tenant without going through the API.

use crate::Store;
use crate::ids::{AccountId, ProjectId};
use crate::store::{NewProject, NewUser};

/// A user named `name` at `email` (password hash "x", pt-BR, not an admin), its sign-in
/// address confirmed (so its form notifications are sent, as for any settled account); its id.
pub async fn user(store: &Store, name: &str, email: &str) -> AccountId {
    let id = store
        .insert_user(&NewUser {
            name,
            email,
            password_hash: "x",
            language: crate::language::Language::PtBr,
            is_admin: false,
        })
        .await
        .expect("insert the user")
        .id;
    store
        .mark_email_confirmed(id)
        .await
        .expect("confirm the address");
    id
}

/// A project of `user_id`'s named and slugged `slug` (token `tok-{slug}`, uuid
/// `uuid-{slug}`), with its home page "Início"; its id.
pub async fn project(store: &Store, user_id: AccountId, slug: &str) -> ProjectId {
    store
        .insert_project(
            &NewProject {
                user_id,
                name: slug,
                slug,
                token: &format!("tok-{slug}"),
                uuid: &format!("uuid-{slug}"),
                meta: serde_json::json!({}),
            },
            "Início",
        )
        .await
        .expect("insert the project")
        .id
}
