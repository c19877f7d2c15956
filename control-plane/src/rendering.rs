//! The render contexts and documents the API's renders share, outside any route: the editor's
//! canvas (`routes::blocks::render`) and the owner's page preview (`routes::preview`) render
//! with live records, each in one of the account's editor renders ([`editor_context`]), and so
//! does the picture of a published page with live lists ([`live_page_document`]); the theme picker, the template preview and the
//! template thumbnails render a template's snapshot with its own sample records
//! ([`template_document`], [`snapshot_context`]); a block's thumbnail shows it alone
//! ([`block_document`]). Route modules use this one; it uses no route module.

use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    account::Account,
    blocks::split_x_vars,
    domain::normalize_page_slug,
    fonts::meta_style,
    identity::Identity,
    manifest::{DynamicPage, page_path},
    record_lists::{DbRecord, ListQuery},
    render::{
        Block, CompiledPage, PostView, RenderContext, RenderError, base_style, document, escape,
    },
    sandbox::Share,
    sections::{MenuPage, menu},
    snapshot::{SnapPage, SnapTable, Snapshot},
    store::{Collection, Field, LibraryBlock, Page, StoreError},
    theme::Theme,
};

use crate::{
    base::Core,
    block_checks::x_vars_error,
    error::{ApiError, ErrorCode, Result},
    external_lists::{Answers, api_lists},
    throttle::Key,
};

/// The context of an editor's render (the canvas, the preview) of `blocks` on `page`: one of
/// `account`'s editor renders is taken ([`editor_render_turn`]: 429 once they are spent, before
/// any record is read), then the page's [`live_context`].
pub async fn editor_context(
    core: &Core,
    answers: &Answers,
    (project_id, account): (ProjectId, Account),
    page: &Page,
    blocks: &[Block],
    post: Option<String>,
) -> Result<RenderContext> {
    editor_render_turn(core, account).await?;
    live_context(core, answers, (project_id, account), page, blocks, post).await
}

/// The render context of one of the project's pages with live records: its database-fed lists,
/// on a collection page the post named by `post` (by slug) or the collection's first, and the
/// records of its API-fed lists (`crate::external_lists`, in `account`'s share of fetches).
async fn live_context(
    core: &Core,
    answers: &Answers,
    (project_id, account): (ProjectId, Account),
    page: &Page,
    blocks: &[Block],
    post: Option<String>,
) -> Result<RenderContext> {
    let project = core.store.project_by_id(project_id).await?;
    // The site's language is its owner's, as at publish.
    let owner = core.store.user_by_id(project.user_id).await?;
    // Items link to their post on the collection's page, and links to the project's pages
    // are known to work, as on the published site.
    let pages = core.store.project_pages(project_id).await?;
    let meta = &project.meta.0;
    let site =
        RenderContext::for_site(Identity::of_meta(meta, &project.name), Theme::of_meta(meta));
    let mut ctx = RenderContext {
        site_slug: project.slug.clone(),
        page_name: page.name.clone(),
        page_slug: normalize_page_slug(&page.slug),
        lang: owner.language.code().to_owned(),
        pages: Some(
            pages
                .iter()
                .map(|p| page_path(&normalize_page_slug(&p.slug), p.table_id.is_some()))
                .collect(),
        ),
        menu: Some(core.store.site_menu(project_id).await?),
        ..site
    };
    for list in blocks.iter().flat_map(Block::db_lists) {
        let items = match collection(core, project_id, &list.table).await? {
            Some((c, fields)) => {
                let at = pages
                    .iter()
                    .find(|p| p.table_id == Some(c.id))
                    .map(|p| normalize_page_slug(&p.slug));
                records(core, &c, &fields, &list.query)
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
        let c = core.store.collection_by_id(table_id).await?;
        let fields = core.store.collection_fields(c.id).await?;
        let query = ListQuery {
            filter_field: post.as_ref().map(|_| "slug".to_string()),
            filter_value: post,
            limit: Some(1),
            ..ListQuery::default()
        };
        let post = records(core, &c, &fields, &query).await?.pop();
        ctx.post = post.map(|r| {
            let mut v = view(r, &fields);
            v.permalink = format!("/{}/{}", ctx.page_slug.trim_matches('/'), v.record.slug);
            v
        });
    }
    ctx.api = api_lists(core, answers, account, blocks).await;
    Ok(ctx)
}

/// A deploy's page with live lists (`manifest.dynamic_pages`) as a whole document: the deploy's
/// blocks and document parts (its stylesheets and scripts are the deploy's `/_assets/…`), with
/// the project's records now, rendered in the owner's account's visitor share, as the edge
/// renders it for visitors. The project card's picture of such a home page
/// (`crate::pictures::screenshot`) is taken of it.
pub async fn live_page_document(
    core: &Core,
    answers: &Answers,
    project_id: ProjectId,
    page: &DynamicPage,
) -> Result<String> {
    let project = core.store.project_by_id(project_id).await?;
    let owner = core.store.user_by_id(project.user_id).await?;
    let account = Account::of(owner.id, owner.business_id);
    let stored = core
        .store
        .project_pages(project_id)
        .await?
        .into_iter()
        .find(|p| normalize_page_slug(&p.slug) == page.page_slug)
        .ok_or(ApiError::NotFound)?;
    let stored = core.store.page_by_id(stored.id).await?;
    let ctx = live_context(
        core,
        answers,
        (project_id, account),
        &stored,
        &page.blocks,
        None,
    )
    .await?;
    let body = core
        .sandbox
        .page(Share::visitor(account), &page.blocks, &ctx)
        .await
        .map_err(|e| ApiError::render("blocks", e))?;
    Ok(document(&page.document, &body))
}

/// The collection behind a list's table slug, when it is one of this project's.
async fn collection(
    core: &Core,
    project_id: ProjectId,
    slug: &str,
) -> Result<Option<(Collection, Vec<Field>)>> {
    match core.store.collection_by_slug(project_id, slug).await {
        Ok(c) => {
            let fields = core.store.collection_fields(c.id).await?;
            Ok(Some((c, fields)))
        }
        Err(StoreError::NotFound) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// A list's records; a query the collection cannot answer (an unknown field, say) is an empty
/// list, as on the published site.
async fn records(
    core: &Core,
    c: &Collection,
    fields: &[Field],
    q: &ListQuery,
) -> Result<Vec<DbRecord>> {
    match core.store.list_records(c, fields, q).await {
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

/// Takes one editor render (the canvas, the preview) from `account`'s allowance a minute
/// (`CANVAS_RENDERS_PER_MINUTE`): 429 with `Retry-After` once it is spent. The workers are
/// shared fairly per account anyway; this keeps one account's editor from keeping its share
/// busy all the time.
async fn editor_render_turn(core: &Core, account: Account) -> Result<()> {
    let allowance = core.settings.canvas_renders_per_minute;
    core.throttle
        .take(&[(Key::Renders(account), allowance)])
        .await
        .map(drop)
        .map_err(|r| {
            ApiError::too_many_requests(
                ErrorCode::RendersRateLimited,
                format!("At most {allowance} editor renders a minute; please wait a moment"),
                r.retry_after_secs,
            )
            .param("max", allowance)
        })
}

/// A library block alone in a document, with its default values, as its thumbnail shows it.
pub async fn block_document(core: &Core, share: Share, block: &LibraryBlock) -> Result<String> {
    let (template, vars) = split_x_vars(&block.content.template).map_err(x_vars_error)?;
    let page = Block {
        uid: block.uid.clone(),
        name: block.content.name.clone(),
        template,
        vars,
        ..Block::default()
    };
    let html = core
        .sandbox
        .page(
            share,
            std::slice::from_ref(&page),
            &RenderContext::default(),
        )
        .await
        .map_err(|e| ApiError::render("template", e))?;
    Ok(format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
         {base}{theme}<style>body{{font-family:system-ui,sans-serif}}{css}</style></head><body>{html}<script>{js}</script></body></html>",
        base = base_style(),
        theme = Theme::default().style(None),
        css = block.content.css.replace("</", "<\\/"),
        js = block.content.js.replace("</script", "<\\/script"),
    ))
}

/// One of a template's pages as a static document: its blocks rendered by the shared renderer
/// with the template's own sample records (see [`render_snapshot_page`]). Block scripts are
/// left out: the theme picker and thumbnails show it without them.
pub async fn template_document(
    core: &Core,
    share: Share,
    snapshot: &Snapshot,
    page_slug: &str,
) -> Result<String> {
    let wanted = normalize_page_slug(page_slug);
    let page = snapshot
        .pages
        .iter()
        .find(|p| normalize_page_slug(&p.slug) == wanted)
        .ok_or(ApiError::NotFound)?;
    let blocks = snapshot.sections.page_blocks(&page.blocks, &page.meta);
    // A template saved before blocks carried their fields may hold only its output.
    let (css, body) = if blocks.is_empty() {
        (String::new(), page.output.clone())
    } else {
        let ctx = snapshot_context(snapshot, page, &blocks);
        let body = core
            .sandbox
            .page(share, &blocks, &ctx)
            .await
            .map_err(|e| ApiError::render("template", e))?;
        (blocks_css(&blocks), body)
    };
    Ok(format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
         <title>{title}</title>{base}{theme}<style>body{{font-family:system-ui,sans-serif}}</style><style>{css}</style></head><body>{body}</body></html>",
        title = escape(&page.name),
        base = base_style(),
        theme = meta_style(&snapshot.project_meta),
        css = css.replace("</", "<\\/"),
    ))
}

/// A snapshot page's blocks rendered in this process with the snapshot's own records (see
/// [`snapshot_context`]): for the platform's own seeded templates only, owners' code renders
/// in the sandbox. Returns the blocks' CSS and the body.
pub fn render_snapshot_page(
    snapshot: &Snapshot,
    page: &SnapPage,
    blocks: &[Block],
) -> std::result::Result<(String, String), RenderError> {
    let ctx = snapshot_context(snapshot, page, blocks);
    let body = CompiledPage::compile(blocks)?.render(&ctx)?;
    Ok((blocks_css(blocks), body))
}

fn blocks_css(blocks: &[Block]) -> String {
    let css: Vec<&str> = blocks.iter().map(|b| b.css.as_str()).collect();
    css.join("\n")
}

/// What a snapshot page's blocks see: the snapshot's identity and theme (its `project_meta`),
/// its database-fed lists read the snapshot's tables (as [`SnapTable::query`]) and a
/// collection page shows its table's first post.
pub fn snapshot_context(snapshot: &Snapshot, page: &SnapPage, blocks: &[Block]) -> RenderContext {
    let page_slug = normalize_page_slug(&page.slug);
    let table = |slug: &str| snapshot.tables.iter().find(|t| t.slug == slug);
    let view = |t: &SnapTable, record: DbRecord, page_slug: Option<&str>| PostView {
        permalink: page_slug
            .map(|p| format!("/{}/{}", p.trim_matches('/'), record.slug))
            .unwrap_or_default(),
        record,
        html_fields: t
            .fields
            .iter()
            .filter(|f| f.kind == "wysiwyg")
            .map(|f| f.slug.clone())
            .collect(),
    };
    // The page that shows a collection's posts, for permalinks.
    let post_page = |table: &str| {
        snapshot
            .pages
            .iter()
            .find(|p| p.table.as_deref() == Some(table))
            .map(|p| normalize_page_slug(&p.slug))
    };
    let meta = &snapshot.project_meta;
    let site = RenderContext::for_site(Identity::of_meta(meta, ""), Theme::of_meta(meta));
    let mut ctx = RenderContext {
        page_name: page.name.clone(),
        page_slug: page_slug.clone(),
        pages: Some(
            snapshot
                .pages
                .iter()
                .map(|p| page_path(&normalize_page_slug(&p.slug), p.table.is_some()))
                .collect(),
        ),
        menu: Some(menu(snapshot.pages.iter().map(|p| MenuPage {
            name: &p.name,
            slug: &p.slug,
            is_collection: p.table.is_some(),
            meta: &p.meta,
        }))),
        ..site
    };
    for list in blocks.iter().flat_map(Block::db_lists) {
        let items = table(&list.table)
            .map(|t| {
                let at = post_page(&t.slug);
                t.query(&list.query)
                    .into_iter()
                    .map(|r| view(t, r, at.as_deref()))
                    .collect()
            })
            .unwrap_or_default();
        ctx.lists.insert(list.key, items);
    }
    if let Some(t) = page.table.as_deref().and_then(table) {
        ctx.post = t
            .query(&ListQuery {
                limit: Some(1),
                ..ListQuery::default()
            })
            .pop()
            .map(|r| view(t, r, Some(&page_slug)));
    }
    ctx
}
