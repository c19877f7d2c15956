//! `vitrine-control seed`: the demo account, the administrator and the templates. Safe to run
//! again: existing accounts are kept, templates are updated in place.

use serde_json::Value;
use vitrine_shared::{
    domain::{Email, PreviewSlug},
    snapshot::TemplateFile,
    store::{NewProject, NewUser, TemplateInfo, User},
};

use crate::{auth, routes::projects::new_identity, state::AppState};

/// The shipped templates, compiled into the binary so a release needs no extra files.
pub const TEMPLATE_FILES: &[(&str, &str)] = &[
    ("business", include_str!("../seed/templates/business.json")),
    (
        "portfolio",
        include_str!("../seed/templates/portfolio.json"),
    ),
    ("blog", include_str!("../seed/templates/blog.json")),
];

/// What the seed did, for printing.
#[derive(Debug)]
pub struct SeedReport {
    pub templates: usize,
    pub demo: Option<(String, String)>,
    pub admin: (String, Option<String>),
}

pub fn parse_templates() -> anyhow::Result<Vec<TemplateFile>> {
    TEMPLATE_FILES
        .iter()
        .map(|(name, raw)| {
            let t: TemplateFile =
                serde_json::from_str(raw).map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            t.snapshot
                .check()
                .map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            Ok(t)
        })
        .collect()
}

async fn ensure_user(
    state: &AppState,
    name: &str,
    email: &str,
    password: &str,
    admin: bool,
) -> anyhow::Result<(User, bool)> {
    let email = Email::parse(email).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(u) = state.store.user_by_email(email.as_str()).await? {
        return Ok((u, false));
    }
    let hash = auth::hash_password(password.to_string())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let user = state
        .store
        .insert_user(&NewUser {
            name,
            email: email.as_str(),
            password_hash: &hash,
            language: "pt-BR",
            is_admin: false,
        })
        .await?;
    if admin {
        state.store.set_user_flags(user.id, true, false).await?;
    }
    Ok((user, true))
}

pub async fn run(state: &AppState) -> anyhow::Result<SeedReport> {
    let templates = parse_templates()?;
    for t in &templates {
        let info = TemplateInfo {
            name: &t.name,
            description: &t.description,
            category: &t.category,
            sort_order: t.order,
        };
        state.store.upsert_template(&info, &t.snapshot).await?;
    }

    let s = &state.settings;
    let admin_password = s.admin_password.as_ref().map(|p| p.expose().to_string());
    let generated = admin_password.is_none().then(auth::new_token);
    let (_, admin_created) = ensure_user(
        state,
        "Administrador",
        &s.admin_email,
        admin_password
            .as_deref()
            .or(generated.as_deref())
            .unwrap_or_default(),
        true,
    )
    .await?;
    let admin = (
        s.admin_email.clone(),
        if admin_created {
            admin_password.or(generated)
        } else {
            None
        },
    );

    let demo = match (&s.demo_email, &s.demo_password) {
        (Some(email), Some(password)) => {
            let (user, created) =
                ensure_user(state, "Conta Demo", email, password.expose(), false).await?;
            if created && let Some(first) = templates.first() {
                // A demo account starts with one site made from the first template.
                let slug = state
                    .store
                    .free_project_slug(PreviewSlug::from_name("demo").as_str())
                    .await?;
                let (token, uuid) = new_identity();
                let new = NewProject {
                    user_id: user.id,
                    name: &first.name,
                    slug: &slug,
                    token: &token,
                    uuid: &uuid,
                    meta: Value::Null,
                };
                state
                    .store
                    .insert_project_from_snapshot(&new, &first.snapshot)
                    .await?;
            }
            Some((email.clone(), password.expose().to_string()))
        }
        _ => None,
    };
    Ok(SeedReport {
        templates: templates.len(),
        demo,
        admin,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn shipped_templates_parse_and_are_consistent() {
        let templates = super::parse_templates().unwrap();
        assert_eq!(templates.len(), 3);
        for t in &templates {
            assert!(
                t.snapshot.pages.iter().any(|p| p.slug == "/"),
                "{} has a home page",
                t.name
            );
            assert!(
                t.snapshot.pages.iter().all(|p| !p.output.trim().is_empty()),
                "{} pages have content",
                t.name
            );
        }
        assert!(
            templates
                .iter()
                .any(|t| !t.snapshot.tables.is_empty() && !t.snapshot.tables[0].posts.is_empty())
        );
    }
}
