//! The editor's canvas (spec 2 §2 "Page editor screen"): the editor's current blocks rendered
//! by the same renderer as the publisher and the edge, with live records, each block's HTML or
//! its template error apart, so one broken block does not blank the canvas.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::ids::{PageId, ProjectId};
use vitrine_shared::{
    fonts::canvas_fonts,
    fonts::meta_style,
    render::{Block, EFFECTS_RUNTIME, base_style},
    sandbox::Share,
};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorize_project,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    rendering::editor_context,
    state::AppState,
};

/// Most blocks one render call may carry.
const MAX_RENDER_BLOCKS: usize = 500;

/// `POST /api/project/{id}/render`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(render_blocks))
}

/// `POST /api/project/{id}/render` body: the editor's current blocks.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RenderRequest {
    /// The page being edited (its name and slug, and on a collection page its collection).
    #[schema(value_type = i64)]
    pub page_id: PageId,
    /// On a collection page: the post to show, by slug (the collection's first otherwise).
    pub post: Option<String>,
    #[schema(value_type = Vec<Object>)]
    pub blocks: Vec<Json>,
}

/// One block's HTML, or its template error.
#[derive(Debug, Serialize, ToSchema)]
pub struct RenderedBlock {
    pub uid: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What the editor's canvas shows.
#[derive(Debug, Serialize, ToSchema)]
pub struct RenderResponse {
    /// HTML for the canvas's `<head>`: the base stylesheet published pages carry
    /// (`BASE_CSS`), the theme's custom properties (`fonts::meta_style`), the site's fonts and their CSS variables as published pages set them
    /// (`fonts::canvas_fonts`), and the effects runtime.
    pub head: String,
    pub blocks: Vec<RenderedBlock>,
}

#[utoipa::path(post, path = "/api/project/{id}/render", tag = "pages", request_body = RenderRequest,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = RenderResponse), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn render_blocks(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<ProjectId>,
    ApiJson(req): ApiJson<RenderRequest>,
) -> Result<ApiJson<RenderResponse>> {
    let account = authorize_project(&state, &user, project_id)
        .await?
        .account();
    if req.blocks.len() > MAX_RENDER_BLOCKS {
        return Err(ApiError::invalid(
            "blocks",
            ErrorCode::TooManyBlocks,
            format!("At most {MAX_RENDER_BLOCKS} blocks can be rendered at once"),
        )
        .param("max", MAX_RENDER_BLOCKS));
    }
    let mut blocks = Vec::with_capacity(req.blocks.len());
    for (i, b) in req.blocks.into_iter().enumerate() {
        let block: Block = serde_json::from_value(b).map_err(|e| {
            ApiError::invalid(
                "blocks",
                ErrorCode::BlockUnreadable,
                format!("Block {} cannot be read: {e}", i + 1),
            )
            .param("index", i + 1)
            .param("detail", e.to_string())
        })?;
        blocks.push(block);
    }
    let page = state.store.page_by_id(req.page_id).await?;
    if page.project_id != project_id {
        return Err(ApiError::NotFound);
    }
    let ctx = editor_context(
        &state,
        &state.external_answers,
        (project_id, account),
        &page,
        &blocks,
        req.post,
    )
    .await?;
    let rendered = state
        .sandbox
        .each(Share::editor(account), &blocks, &ctx)
        .await
        .map_err(|e| ApiError::render("blocks", e))?;
    let project = state.store.project_by_id(project_id).await?;
    Ok(ApiJson(RenderResponse {
        head: format!(
            "{}{}{}{EFFECTS_RUNTIME}",
            base_style(),
            meta_style(&project.meta.0),
            canvas_fonts(&project.meta.0, &state.settings.fonts_url)
        ),
        blocks: blocks
            .iter()
            .zip(rendered)
            .map(|(b, r)| match r {
                Ok(html) => RenderedBlock {
                    uid: b.uid.clone(),
                    html: Some(html),
                    error: None,
                },
                Err(e) => RenderedBlock {
                    uid: b.uid.clone(),
                    html: None,
                    error: Some(e.to_string()),
                },
            })
            .collect(),
    }))
}
