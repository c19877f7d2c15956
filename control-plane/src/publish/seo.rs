//! A build's search-engine parts (issue 44, `vitrine_shared::seo`): each page's canonical URL
//! and JSON-LD, the site's icon (always routed at `/favicon.ico`), and the site's 404 page made
//! with its header, footer and theme.
//!
//! Methods of [`Build`] (and associated functions), as the assets' are, so `build.rs` calls
//! them without importing this module.

use bytes::Bytes;
use serde_json::Value;
use vitrine_shared::{
    identity::Identity,
    manifest::{FAVICON_PATH, StaticFile, page_key},
    render::{Block, DocumentParts, RenderContext, document},
    sandbox::Share,
    sections::{SectionKind, Sections},
    seo::{absolute, favicon, jsonld},
    theme::Theme,
};

use super::{Parts, build::Build, objects::content_hash};
use crate::error::PublishError;

/// The words of the site's 404 page, by the site's language.
fn not_found_words(lang: &str) -> (&'static str, &'static str, &'static str) {
    if lang == "en" {
        (
            "Page not found",
            "The page you were looking for is not here. It may have moved or been removed.",
            "Back to the home page",
        )
    } else {
        (
            "Página não encontrada",
            "A página que você procurou não está aqui. Ela pode ter mudado de endereço ou sido removida.",
            "Voltar para a página inicial",
        )
    }
}

/// The name of the home page in a breadcrumb trail.
fn home_name(lang: &str) -> &'static str {
    if lang == "en" { "Home" } else { "Início" }
}

impl Build<'_> {
    /// A page's canonical URL and JSON-LD: the business, and the trail from the home page.
    /// `path` is the page's (`/`, `/sobre`).
    pub(super) fn page_seo(
        parts: &mut DocumentParts,
        base: &str,
        path: &str,
        page_name: &str,
        business: &Value,
    ) {
        parts.canonical = absolute(base, path);
        parts.json_ld = vec![business.clone()];
        if path != "/" {
            parts.json_ld.push(jsonld::breadcrumbs(&[
                (home_name(&parts.lang).into(), absolute(base, "/")),
                (page_name.to_string(), parts.canonical.clone()),
            ]));
        }
    }

    /// The business's `LocalBusiness`, with its logo copied into the site.
    pub(super) async fn business(
        &mut self,
        identity: &Identity,
        base: &str,
    ) -> Result<Value, PublishError> {
        let logo = self.link_url(&identity.logo).await?;
        let logo = if logo.starts_with("/files/") {
            ""
        } else {
            &logo
        };
        Ok(jsonld::local_business(identity, base, logo))
    }

    /// The site's icon, by [`favicon`]'s order: its URL and media type for the pages' `<link>`.
    /// It is also routed at [`FAVICON_PATH`] (a PNG wrapped as an ICO), never cached forever.
    pub(super) async fn site_icon(
        &mut self,
        favicon_setting: &str,
        identity: &Identity,
        theme: &Theme,
    ) -> Result<(String, String), PublishError> {
        for url in [favicon_setting.trim(), identity.logo.trim()] {
            let Some(key) = url
                .strip_prefix("/files/")
                .filter(|k| k.starts_with("uploads/"))
            else {
                continue;
            };
            let Some(href) = self.upload(key).await? else {
                continue;
            };
            let Some(file) = self.routes.get(&href).cloned() else {
                continue;
            };
            let icon = match self.core.blobs.get(key).await.ok() {
                Some(bytes) => match favicon::ico_from_png(&bytes) {
                    Some(ico) => {
                        let ico_href = self.asset(Bytes::from(ico), "ico").await?;
                        self.routes.get(&ico_href).cloned().unwrap_or(file.clone())
                    }
                    None => file.clone(),
                },
                None => file.clone(),
            };
            self.route_icon(icon);
            return Ok((href, file.content_type));
        }
        let svg = favicon::letter_mark(&identity.name, theme);
        let href = self.asset(Bytes::from(svg), "svg").await?;
        if let Some(file) = self.routes.get(&href).cloned() {
            self.route_icon(file);
        }
        Ok((href, "image/svg+xml".into()))
    }

    fn route_icon(&mut self, file: StaticFile) {
        let file = StaticFile {
            immutable: false,
            ..file
        };
        self.routes.insert(FAVICON_PATH.to_string(), file);
    }

    /// The site's 404 document: its header, a "page not found" block and its footer, rendered
    /// like a static page in `parts` (the site's theme, fonts and code), and stored; the edge
    /// serves it with status 404.
    pub(super) async fn not_found_page(
        &mut self,
        publisher: &Parts,
        share: Share,
        sections: &Sections,
        ctx: RenderContext,
        mut parts: DocumentParts,
    ) -> Result<StaticFile, PublishError> {
        let (title, text, back) = not_found_words(&parts.lang);
        let block = Block {
            uid: "not-found".into(),
            name: "404".into(),
            template: format!(
                "<main class=\"vt-404\"><h1>{title}</h1><p>{text}</p><p><a href=\"/\">{back}</a></p></main>"
            ),
            css: ".vt-404{max-width:40rem;margin:0 auto;padding:4rem 1.5rem;text-align:center;\
font-family:var(--font-body,system-ui,sans-serif)}\
.vt-404 h1{font-family:var(--font-heading,inherit);color:var(--vt-text,inherit)}\
.vt-404 a{color:var(--vt-primary,inherit);font-weight:600}"
                .into(),
            ..Block::default()
        };
        let mut blocks = Vec::new();
        blocks.extend(sections.shown(SectionKind::Header, &Value::Null));
        blocks.push(block);
        blocks.extend(sections.shown(SectionKind::Footer, &Value::Null));
        let blocks = self.link_blocks(blocks).await?;
        let (css, js) = self.bundles(&blocks).await?;
        parts.stylesheets.extend(css);
        parts.scripts.extend(js);
        parts.title = format!("{title} | {}", parts.site_name);
        parts.head_code = format!(
            "<meta name=\"robots\" content=\"noindex\">\n{}",
            parts.head_code
        );
        parts.canonical.clear();
        let body = publisher
            .renders
            .page(&self.core.sandbox, share, &blocks, &ctx)
            .await
            .map_err(PublishError::Sandbox)?;
        let html = document(&parts, &body);
        self.note_uploads(&html);
        let hash = content_hash(html.as_bytes());
        let key = page_key(self.project_id, &format!("{hash}.html"));
        self.put(
            key,
            &hash,
            Bytes::from(html),
            "text/html; charset=utf-8",
            false,
        )
        .await
    }
}
