//! Where a project's redirects and its pages meet (issue 41, "Conflicts are warned"). On a
//! published site the redirects come before the pages (`edge::visit`), so a rule whose origin
//! matches a page's address hides that page from every visitor. Both are still saved (the owner
//! may mean it: a page retired behind a redirect), but the answer carries a [`Warning`] whose
//! code the dashboard translates:
//!
//! - `redirect_hides_page` / `redirect_hides_pages`: a redirect saved over one page or several;
//! - `page_under_redirect`: a page created, or given a new address, under an existing rule.
//!
//! A rule is matched exactly as the edge matches it (the shared [`Matcher`]); a collection page
//! counts as hidden when its posts (`/{page}/{post}`) are.

use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    domain::normalize_page_slug,
    redirects::Matcher,
    store::{Page, PageSummary},
};

use crate::{
    base::Core,
    error::{ErrorCode, Params, Result},
    publish::Warning,
};

/// A post address no rule names exactly (`~` is not an origin character): only a wildcard over
/// the collection page's posts matches it.
const ANY_POST: &str = "~post";

/// The addresses a page answers at: `/` or `/{slug}`, and for a collection page its posts.
fn page_addresses(slug: &str, collection: bool) -> Vec<String> {
    let slug = normalize_page_slug(slug);
    let path = if slug == "/" {
        "/".to_string()
    } else {
        format!("/{}", slug.trim_matches('/'))
    };
    if collection {
        vec![format!("{}/{ANY_POST}", path.trim_end_matches('/'))]
    } else {
        vec![path]
    }
}

/// Whether the rule `from → to` sends visitors of `address` elsewhere.
fn hides(from: &str, to: &str, address: &str) -> bool {
    Matcher::new([(from, to)]).lookup(address, None).is_some()
}

fn warning(code: ErrorCode, message: String, params: &[(&str, serde_json::Value)]) -> Warning {
    let mut p = Params::new();
    for (k, v) in params {
        p.insert((*k).to_string(), v.clone());
    }
    Warning {
        code,
        message,
        params: p,
    }
}

/// The shown address of a page (`/sobre`, `/blog/…` for a collection page's posts).
fn shown(slug: &str, collection: bool) -> String {
    let path = page_addresses(slug, false).remove(0);
    if collection {
        format!("{}/…", path.trim_end_matches('/'))
    } else {
        path
    }
}

/// The warnings for the rule `from → to` of `project_id`: the pages it hides, if any.
pub async fn redirect_warnings(
    core: &Core,
    project_id: ProjectId,
    from: &str,
    to: &str,
) -> Result<Vec<Warning>> {
    let pages = core.store.project_pages(project_id).await?;
    Ok(hidden_pages_warning(&pages, from, to).into_iter().collect())
}

fn hidden_pages_warning(pages: &[PageSummary], from: &str, to: &str) -> Option<Warning> {
    let hidden: Vec<&PageSummary> = pages
        .iter()
        .filter(|p| {
            page_addresses(&p.slug, p.table_id.is_some())
                .iter()
                .any(|a| hides(from, to, a))
        })
        .collect();
    let first = hidden.first()?;
    let path = shown(&first.slug, first.table_id.is_some());
    let mut params: Vec<(&str, serde_json::Value)> = vec![
        ("page", first.name.clone().into()),
        ("path", path.clone().into()),
        ("from", from.into()),
    ];
    Some(if hidden.len() == 1 {
        warning(
            ErrorCode::RedirectHidesPage,
            format!(
                "Saved, but this redirect hides the page \"{}\" ({path}): visitors are sent to {to}",
                first.name
            ),
            &params,
        )
    } else {
        params.push(("count", hidden.len().into()));
        warning(
            ErrorCode::RedirectHidesPages,
            format!(
                "Saved, but this redirect hides {} pages, \"{}\" ({path}) among them",
                hidden.len(),
                first.name
            ),
            &params,
        )
    })
}

/// The warning for `page` when one of the project's rules hides it.
pub async fn page_warnings(core: &Core, page: &Page) -> Result<Vec<Warning>> {
    let rules = core.store.project_redirects(page.project_id).await?;
    Ok(
        page_under_redirect(&rules, &page.slug, page.table_id.is_some())
            .into_iter()
            .collect(),
    )
}

fn page_under_redirect(
    rules: &[(String, String)],
    slug: &str,
    collection: bool,
) -> Option<Warning> {
    let addresses = page_addresses(slug, collection);
    // Of the rules that take the page's address, the one the edge applies: an exact origin
    // before a wildcard, the longest wildcard first.
    let (from, to) = rules
        .iter()
        .filter(|(f, t)| addresses.iter().any(|a| hides(f, t, a)))
        .max_by_key(|(f, _)| (!f.ends_with('*'), f.len()))?;
    let path = shown(slug, collection);
    Some(warning(
        ErrorCode::PageUnderRedirect,
        format!(
            "Saved, but the redirect {from} → {to} hides this page: visitors of {path} are sent to {to}"
        ),
        &[
            ("from", from.as_str().into()),
            ("to", to.as_str().into()),
            ("path", path.clone().into()),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_shared::ids::{CollectionId, PageId};

    fn page(name: &str, slug: &str, table_id: Option<CollectionId>) -> PageSummary {
        PageSummary {
            id: PageId(1),
            name: name.into(),
            slug: slug.into(),
            table_id,
            is_home: slug == "/",
            updated_at: chrono::Utc::now(),
        }
    }

    #[test]
    fn a_rule_hides_the_pages_the_edge_would_send_elsewhere() {
        let pages = [
            page("Início", "/", None),
            page("Sobre", "sobre", None),
            page("Blog", "blog", Some(CollectionId(3))),
        ];
        let w = hidden_pages_warning(&pages, "/sobre", "/contato").unwrap();
        assert_eq!(w.code, ErrorCode::RedirectHidesPage);
        assert_eq!(w.params["page"], "Sobre");
        assert_eq!(w.params["path"], "/sobre");
        // A collection page is hidden when its posts are; one post alone hides no page.
        let w = hidden_pages_warning(&pages, "/blog/*", "/novidades").unwrap();
        assert_eq!(w.params["path"], "/blog/…");
        assert!(hidden_pages_warning(&pages, "/blog/um-post", "/x").is_none());
        assert!(hidden_pages_warning(&pages, "/antigo", "/sobre").is_none());
        let w = hidden_pages_warning(&pages, "*", "https://outro.example/*").unwrap();
        assert_eq!(w.code, ErrorCode::RedirectHidesPages);
        assert_eq!(w.params["count"], 3);
    }

    #[test]
    fn a_page_under_a_rule_names_the_rule() {
        let rules = [
            ("/promo".to_string(), "/ofertas".to_string()),
            ("/loja/*".to_string(), "/produtos/*".to_string()),
        ];
        let w = page_under_redirect(&rules, "promo", false).unwrap();
        assert_eq!(w.code, ErrorCode::PageUnderRedirect);
        assert_eq!(w.params["from"], "/promo");
        assert_eq!(w.params["to"], "/ofertas");
        let w = page_under_redirect(&rules, "loja", false).unwrap();
        assert_eq!(
            w.params["from"], "/loja/*",
            "`/loja/*` also matches `/loja`"
        );
        assert!(page_under_redirect(&rules, "loja", true).is_some());
        // An exact origin wins over a wildcard, as at the edge.
        let both = [
            ("/loja/*".to_string(), "/a".to_string()),
            ("/loja".to_string(), "/b".to_string()),
        ];
        assert_eq!(
            page_under_redirect(&both, "loja", false).unwrap().params["from"],
            "/loja"
        );
        assert!(page_under_redirect(&rules, "sobre", false).is_none());
        assert!(page_under_redirect(&[], "/", false).is_none());
    }
}
