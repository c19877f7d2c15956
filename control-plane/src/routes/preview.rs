//! The owner's preview of one page: its blocks (with the project's shared header and footer)
//! rendered by the same renderer the publisher and the edge use, with live records (the page's
//! database-fed lists, and on a collection page the post named by `?post=` or the
//! collection's first). A template error is shown, naming the
//! block and the line, with status 422; visitors of the published site get the site's 500 page
//! instead (the edge).
//!
//! The document is owners' code, so it is served with a `sandbox` CSP (scripts run, but in an
//! opaque origin: never with the dashboard's cookies or storage) and may only be framed by the
//! dashboard.

use axum::{
    extract::State,
    http::{HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::ids::{PageId, ProjectId};
use vitrine_shared::{
    fonts::canvas_fonts,
    fonts::meta_style,
    identity::{Identity, page_title},
    render::{Block, EFFECTS_RUNTIME, RenderError, base_style, check_blocks, escape},
    sandbox::{SandboxError, Share},
};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorize_project,
    error::{ApiError, ErrorBody, Result},
    extract::{ApiPath, ApiQuery},
    rendering::editor_context,
    state::AppState,
};

/// `GET /api/project/{id}/page/{page_id}/preview`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(preview_page))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PreviewQuery {
    /// On a collection page: the post to show (by slug); the collection's first otherwise.
    pub post: Option<String>,
}

#[utoipa::path(get, path = "/api/project/{id}/page/{page_id}/preview", tag = "pages",
    params(("id" = i64, Path, description = "Project id"), ("page_id" = i64, Path, description = "Page id"), PreviewQuery),
    responses((status = 200, description = "The page as an HTML document", content_type = "text/html"),
        (status = 422, description = "A block's template has an error: an HTML document that shows it", content_type = "text/html"),
        (status = 404, body = ErrorBody)))]
pub async fn preview_page(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((project_id, page_id)): ApiPath<(ProjectId, PageId)>,
    ApiQuery(q): ApiQuery<PreviewQuery>,
) -> Result<Response> {
    let account = authorize_project(&state, &user, project_id)
        .await?
        .account();
    let page = state.store.page_by_id(page_id).await?;
    if page.project_id != project_id {
        return Err(ApiError::NotFound);
    }
    // The page as visitors see it: the shared header and footer around its own blocks.
    let blocks = state
        .store
        .global_sections(project_id)
        .await?
        .page_blocks(&page.blocks.0, &page.meta.0);
    // A syntax error is shown before any record is read.
    if let Err(e) = check_blocks(&blocks) {
        return Ok(error_document(&e));
    }
    let ctx = editor_context(
        &state,
        &state.external_answers,
        (project_id, account),
        &page,
        &blocks,
        q.post,
    )
    .await?;
    let body = match state
        .sandbox
        .page(Share::editor(account), &blocks, &ctx)
        .await
    {
        Ok(b) => b,
        Err(SandboxError::Render(e)) => return Ok(error_document(&e)),
        Err(e) => return Err(ApiError::render("blocks", e)),
    };
    let css: String = blocks
        .iter()
        .map(|b| b.css.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let js: String = blocks
        .iter()
        .map(|b| b.js.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let project = state.store.project_by_id(project_id).await?;
    let meta = &project.meta.0;
    let document = format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
         <title>{title}</title>{base}{theme}{fonts}{effects}<style>{css}</style></head><body>{body}<script>{js}</script></body></html>",
        title = escape(&page_title(
            &page.name,
            page.is_home,
            &Identity::of_meta(meta, &project.name).name
        )),
        base = base_style(),
        theme = meta_style(meta),
        fonts = canvas_fonts(meta, &state.settings.fonts_url),
        effects = if blocks.iter().any(Block::has_effect) {
            EFFECTS_RUNTIME
        } else {
            ""
        },
        css = css.replace("</", "<\\/"),
        js = js.replace("</script", "<\\/script"),
    );
    Ok(sandboxed(StatusCode::OK, document))
}

fn error_document(e: &RenderError) -> Response {
    let document = format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><title>Erro no template</title>\
         <style>body{{font-family:system-ui,sans-serif;margin:2rem;color:#222}}pre{{background:#fbeaea;border:1px solid #d88;padding:1rem;white-space:pre-wrap}}</style></head>\
         <body><h1>Erro no template do bloco \u{201c}{block}\u{201d}</h1><pre data-template-error>{message}</pre>\
         <p lang=\"en\">Template error in block \u{201c}{block}\u{201d}. Visitors of the published site see its error page.</p></body></html>",
        block = escape(&e.block),
        message = escape(&e.message),
    );
    sandboxed(StatusCode::UNPROCESSABLE_ENTITY, document)
}

fn sandboxed(status: StatusCode, document: String) -> Response {
    let mut response = (status, Html(document)).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("sandbox allow-scripts; frame-ancestors 'self'"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
