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
use vitrine_shared::{
    domain::normalize_page_slug,
    fonts::canvas_fonts,
    manifest::page_path,
    record_lists::{DbRecord, ListQuery},
    render::{
        Block, EFFECTS_RUNTIME, PostView, RenderContext, RenderError, base_style, check_blocks,
        escape,
    },
    sandbox::SandboxError,
    store::{Collection, Field, Page, StoreError},
};

use crate::{
    auth::CurrentUser,
    authz::authorize_project,
    error::{ApiError, ErrorBody, Result},
    extract::{ApiPath, ApiQuery},
    state::AppState,
};

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
    ApiPath((project_id, page_id)): ApiPath<(i64, i64)>,
    ApiQuery(q): ApiQuery<PreviewQuery>,
) -> Result<Response> {
    authorize_project(&state, &user, project_id).await?;
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
    let mut ctx = live_context(&state, project_id, &page, &blocks, q.post).await?;
    ctx.api = crate::routes::blocks::api_lists(&state, &blocks).await;
    let body = match state.sandbox.page(&blocks, &ctx).await {
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
    let document = format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
         <title>{title}</title>{base}{fonts}{effects}<style>{css}</style></head><body>{body}<script>{js}</script></body></html>",
        title = escape(&page.name),
        base = base_style(),
        fonts = canvas_fonts(
            &state.store.project_by_id(project_id).await?.meta.0,
            &state.settings.fonts_url
        ),
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

/// The render context of one of the project's pages with live records: its database-fed lists
/// and, on a collection page, the post named by `post` (by slug) or the collection's first.
pub async fn live_context(
    state: &AppState,
    project_id: i64,
    page: &Page,
    blocks: &[Block],
    post: Option<String>,
) -> Result<RenderContext> {
    let project = state.store.project_by_id(project_id).await?;
    // The site's language is its owner's, as at publish.
    let owner = state.store.user_by_id(project.user_id).await?;
    // Items link to their post on the collection's page, and links to the project's pages
    // are known to work, as on the published site.
    let pages = state.store.project_pages(project_id).await?;
    let mut ctx = RenderContext {
        site_name: project.name.clone(),
        site_slug: project.slug.clone(),
        page_name: page.name.clone(),
        page_slug: normalize_page_slug(&page.slug),
        lang: owner.language.clone(),
        pages: Some(
            pages
                .iter()
                .map(|p| page_path(&normalize_page_slug(&p.slug), p.table_id.is_some()))
                .collect(),
        ),
        menu: Some(state.store.site_menu(project_id).await?),
        ..RenderContext::default()
    };
    for list in blocks.iter().flat_map(Block::db_lists) {
        let items = match collection(state, project_id, &list.table).await? {
            Some((c, fields)) => {
                let at = pages
                    .iter()
                    .find(|p| p.table_id == Some(c.id))
                    .map(|p| normalize_page_slug(&p.slug));
                records(state, &c, &fields, &list.query)
                    .await?
                    .into_iter()
                    .map(|r| {
                        let mut v = view(r, &fields);
                        if let Some(page) = &at {
                            v.permalink = format!("/{}/{}", page.trim_matches('/'), v.record.slug);
                        }
                        v
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        ctx.lists.insert(list.key, items);
    }
    if let Some(table_id) = page.table_id {
        let c = state.store.collection_by_id(table_id).await?;
        let fields = state.store.collection_fields(c.id).await?;
        let query = ListQuery {
            filter_field: post.as_ref().map(|_| "slug".to_string()),
            filter_value: post,
            limit: Some(1),
            ..ListQuery::default()
        };
        let post = records(state, &c, &fields, &query).await?.pop();
        ctx.post = post.map(|r| {
            let mut v = view(r, &fields);
            v.permalink = format!("/{}/{}", ctx.page_slug.trim_matches('/'), v.record.slug);
            v
        });
    }
    Ok(ctx)
}

/// The collection behind a list's table slug, when it is one of this project's.
async fn collection(
    state: &AppState,
    project_id: i64,
    slug: &str,
) -> Result<Option<(Collection, Vec<Field>)>> {
    match state.store.collection_by_slug(project_id, slug).await {
        Ok(c) => {
            let fields = state.store.collection_fields(c.id).await?;
            Ok(Some((c, fields)))
        }
        Err(StoreError::NotFound) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// A list's records; a query the collection cannot answer (an unknown field, say) is an empty
/// list, as on the published site.
async fn records(
    state: &AppState,
    c: &Collection,
    fields: &[Field],
    q: &ListQuery,
) -> Result<Vec<DbRecord>> {
    match state.store.list_records(c, fields, q).await {
        Ok(v) => Ok(v),
        Err(vitrine_shared::record_lists::ListError::Query(_)) => Ok(Vec::new()),
        Err(vitrine_shared::record_lists::ListError::Store(e)) => Err(e.into()),
    }
}

fn view(record: DbRecord, fields: &[Field]) -> PostView {
    PostView {
        record,
        permalink: String::new(),
        html_fields: fields
            .iter()
            .filter(|f| f.kind == "wysiwyg")
            .map(|f| f.slug.clone())
            .collect(),
    }
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
