//! The route table: one module per resource, merged here. Every API route is registered
//! through utoipa-axum's `routes!`, so the OpenAPI document at `/api/openapi.json` lists
//! exactly the routes that exist (utoipa is the maintained code-first OpenAPI generator for
//! axum; the document is built from the handlers' own annotations).
//!
//! Query parameter structs carry `#[into_params(parameter_in = Query)]`: handlers read them
//! through [`crate::extract::ApiQuery`], which utoipa does not recognise as a query, and without
//! it utoipa documents their fields as path parameters.

pub mod account;
pub mod analytics;
pub mod blocks;
pub mod business;
pub mod business_library;
pub mod client;
pub mod collections;
pub mod domains;
pub mod form_email;
pub mod form_history;
pub mod identity;
pub mod import_export;
pub mod ops;
pub mod pages;
pub mod photos;
pub mod posts;
pub mod preview;
pub mod projects;
pub mod publish;
pub mod redirects;
pub mod sections;
pub mod session;
pub mod stripe;
pub mod templates;
pub mod uploads;

use axum::{
    Json, Router,
    extract::DefaultBodyLimit,
    http::{HeaderValue, header},
    middleware,
    response::{Html, IntoResponse},
    routing::get,
};
use tower_http::set_header::SetResponseHeaderLayer;
use utoipa::OpenApi;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{accounts::csrf, dashboard_files, error::ApiError, nul, state::AppState};

#[derive(OpenApi)]
#[openapi(
    info(title = "Vitrine control plane API", description = "The dashboard's API. Errors are JSON {error, message, field?, params?, details?} with a 4xx status for anything the caller got wrong; error is one of the ErrorCode values."),
    paths(uploads::serve_file),
    // The events of a streamed publish (not a response body of their own).
    components(schemas(crate::publish::Step, publish::StreamError)),
    tags(
        (name = "session", description = "Accounts and sessions"),
        (name = "projects", description = "Projects (sites)"),
        (name = "pages", description = "Pages of a project"),
        (name = "templates", description = "Themes"),
        (name = "blocks", description = "The block library, the business's library and My Blocks"),
        (name = "admin", description = "Administrator screens (/erp)"),
        (name = "collections", description = "Collections (tables) and their fields"),
        (name = "records", description = "Records (posts), listings, import and export"),
        (name = "publishing", description = "Publishing, unpublishing, deploy history and rollback"),
        (name = "redirects", description = "Redirect rules of a project"),
        (name = "form history", description = "Form submissions of a published site and their settings"),
        (name = "analytics", description = "Visitors of a published site, counted by the edge without cookies"),
        (name = "client panel", description = "The client admin panel and the spreadsheet link"),
        (name = "uploads", description = "Files"),
    )
)]
struct ApiDoc;

/// The API routes with their OpenAPI description.
fn api(state: &AppState) -> (Router<AppState>, utoipa::openapi::OpenApi) {
    // Room for a file somewhat over the limit, so the handler can answer with the file-size
    // message; a data URL is about 4/3 the size of its file.
    let upload_limit = (state.settings.upload_max_bytes * 2 + 64 * 1024) as usize;
    let (uploads, upload_doc) = OpenApiRouter::<AppState>::new()
        .routes(routes!(uploads::upload))
        .layer(DefaultBodyLimit::max(upload_limit))
        .split_for_parts();
    // Imports are files too: room for a data URL somewhat over the import limit.
    let import_limit = (state.settings.import_max_bytes * 2 + 64 * 1024) as usize;
    let (imports, import_doc) = OpenApiRouter::<AppState>::new()
        .routes(routes!(import_export::import))
        .layer(DefaultBodyLimit::max(import_limit))
        .split_for_parts();
    let (router, mut doc) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(session::public_config))
        .routes(routes!(session::get_user, account::update_account))
        .routes(routes!(account::change_password))
        .routes(routes!(account::storage))
        .routes(routes!(account::resend_email_confirmation))
        .routes(routes!(account::confirm_email))
        .routes(routes!(account::plans))
        .routes(routes!(account::balance))
        .routes(routes!(account::month_history))
        .routes(routes!(account::day_history))
        .routes(routes!(account::list_users))
        .routes(routes!(ops::list_edges))
        .routes(routes!(account::login_with))
        .routes(routes!(account::login_back))
        .routes(routes!(stripe::config))
        .routes(routes!(stripe::setup_intent))
        .routes(routes!(stripe::set_default_payment_method))
        .routes(routes!(
            business::list_business_users,
            business::create_business_user
        ))
        .routes(routes!(
            business::get_business_user,
            business::update_business_user
        ))
        .routes(routes!(session::login))
        .routes(routes!(session::register))
        .routes(routes!(session::logout))
        .routes(routes!(session::forgot))
        .routes(routes!(session::new_password_route))
        .routes(routes!(projects::list_projects, projects::create_project))
        .routes(routes!(
            projects::get_project,
            projects::update_project,
            projects::delete_project
        ))
        .routes(routes!(projects::duplicate_project))
        .merge(identity::router())
        .routes(routes!(domains::dns_verify))
        .routes(routes!(domains::remove_domain))
        .routes(routes!(pages::create_page))
        .routes(routes!(pages::get_page))
        .merge(preview::router())
        .routes(routes!(sections::get_sections))
        .routes(routes!(sections::save_section, sections::delete_section))
        .routes(routes!(sections::make_section))
        .routes(routes!(pages::update_page, pages::delete_page))
        .merge(templates::router())
        .merge(blocks::library::router())
        .merge(blocks::my_blocks::router())
        .merge(blocks::admin::router())
        .merge(business_library::router())
        .merge(blocks::render::router())
        .merge(blocks::fetch::router())
        .merge(blocks::screenshots::router())
        .merge(photos::router())
        .routes(routes!(collections::create_table))
        .routes(routes!(
            collections::get_table,
            collections::update_table,
            collections::delete_table
        ))
        .routes(routes!(collections::create_field))
        .routes(routes!(collections::reorder_fields))
        .routes(routes!(
            collections::update_field,
            collections::delete_field
        ))
        .routes(routes!(posts::create_post, posts::delete_posts))
        .routes(routes!(
            posts::get_post,
            posts::update_post,
            posts::delete_post
        ))
        .routes(routes!(posts::table_data))
        .routes(routes!(posts::db_data))
        .routes(routes!(import_export::export_csv))
        .routes(routes!(import_export::export_json))
        .routes(routes!(publish::publish_v2))
        .routes(routes!(publish::publish_v2_events))
        .routes(routes!(publish::publish_v1))
        .routes(routes!(publish::unpublish))
        .routes(routes!(publish::list_deploys))
        .routes(routes!(publish::activate_deploy))
        .routes(routes!(publish::deploy_screenshot))
        .routes(routes!(redirects::list_redirects))
        .routes(routes!(redirects::create_redirect))
        .routes(routes!(
            redirects::get_redirect,
            redirects::update_redirect,
            redirects::delete_redirect
        ))
        .routes(routes!(
            form_history::form_history,
            form_history::delete_form_history
        ))
        .routes(routes!(form_history::export_form_history))
        .routes(routes!(analytics::analytics))
        .routes(routes!(form_history::update_settings))
        .routes(routes!(
            form_email::get_form_email,
            form_email::set_form_email
        ))
        .routes(routes!(form_email::resend_form_email))
        .routes(routes!(form_email::confirm_form_email))
        .routes(routes!(client::client_project))
        .routes(routes!(client::regenerate_token))
        .routes(routes!(
            client::get_sheet_link,
            client::regenerate_sheet_token
        ))
        .routes(routes!(client::google_sheets))
        .layer(DefaultBodyLimit::max(
            state.settings.json_body_max_bytes as usize,
        ))
        .split_for_parts();
    // Uploads and imports have their own, larger body limits; document them with the rest.
    doc.merge(upload_doc);
    doc.merge(import_doc);
    document_shared_answers(&mut doc);
    (router.merge(uploads).merge(imports), doc)
}

/// Documents, on every operation, the answers that come from the layers and extractors every
/// route shares rather than from its handler, so the document says what the server really
/// answers (the OpenAPI fuzzer in `scripts/schemathesis.sh` holds it to that): a NUL in the
/// path or query is a 422 ([`nul::refuse_in_uri`]); a JSON body may be malformed (400), too
/// large (413), not JSON (415) or invalid (422); a path parameter that does not parse names
/// nothing (404); a query string that does not parse is a 400; a state-changing call from
/// another origin is a 403 ([`csrf`]). A handler's own description of a status is kept.
fn document_shared_answers(doc: &mut utoipa::openapi::OpenApi) {
    use std::collections::btree_map::Entry;
    use utoipa::openapi::{
        ContentBuilder, Ref, RefOr, ResponseBuilder, path::ParameterIn, path::PathItem,
    };
    let error_content = || {
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("ErrorBody")))
            .build()
    };
    let error = |description: &str| {
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content("application/json", error_content())
                .build(),
        )
    };
    for item in doc.paths.paths.values_mut() {
        let PathItem {
            get,
            put,
            post,
            delete,
            options,
            head,
            patch,
            trace,
            ..
        } = item;
        let operations = [
            (false, get),
            (true, put),
            (true, post),
            (true, delete),
            (false, options),
            (false, head),
            (true, patch),
            (false, trace),
        ];
        for (changes_state, operation) in operations {
            let Some(op) = operation else { continue };
            let mut answers = vec![(
                "422",
                "Invalid input (a NUL character in the path or query: `nul_character`)",
            )];
            let json_body = op
                .request_body
                .as_ref()
                .is_some_and(|b| b.content.keys().any(|t| t.contains("json")));
            if json_body {
                answers.extend([
                    ("400", "Malformed JSON"),
                    ("413", "Request body is too large"),
                    ("415", "The body is not JSON"),
                ]);
            }
            let parameters = op.parameters.as_deref().unwrap_or_default();
            if parameters
                .iter()
                .any(|p| matches!(p.parameter_in, ParameterIn::Path))
            {
                answers.push(("404", "Not found"));
            }
            if parameters
                .iter()
                .any(|p| matches!(p.parameter_in, ParameterIn::Query))
            {
                answers.push(("400", "Invalid query string"));
            }
            if changes_state {
                answers.push(("403", "Cross-origin request refused"));
            }
            for (status, description) in answers {
                match op.responses.responses.entry(status.to_string()) {
                    Entry::Vacant(slot) => {
                        slot.insert(error(description));
                    }
                    // The handler answers this status in another form too (a text or HTML
                    // document): the shared layers' JSON error is one of its forms.
                    Entry::Occupied(mut slot) => {
                        if let RefOr::T(response) = slot.get_mut() {
                            response
                                .content
                                .entry("application/json".to_string())
                                .or_insert_with(error_content);
                        }
                    }
                }
            }
        }
    }
}

/// The whole control plane: API, uploaded files, OpenAPI, and the dashboard with SPA fallback.
pub fn router(state: AppState) -> Router {
    let (api, doc) = api(&state);
    let doc_json = serde_json::to_value(&doc).expect("OpenAPI document serialises");
    let dashboard = state.settings.dashboard_dir.clone();
    Router::new()
        .merge(api)
        .route(
            "/api/openapi.json",
            get(move || async move { Json(doc_json.clone()) }),
        )
        .route("/api/docs", get(docs_page))
        .route(
            "/api/{*rest}",
            axum::routing::any(|| async { ApiError::NotFound }),
        )
        .route("/files/{*key}", get(uploads::serve_file))
        .route("/healthz", get(|| async { "ok" }))
        .layer(middleware::from_fn(nul::refuse_in_uri))
        .layer(middleware::from_fn_with_state(
            state.core.clone(),
            csrf::same_origin_only,
        ))
        .layer(middleware::from_fn_with_state(
            state.metrics.clone(),
            crate::metrics::track,
        ))
        .with_state(state)
        .nest_service("/assets", dashboard_files::assets(&dashboard))
        .fallback_service(dashboard_files::app(&dashboard))
        // Last, so they cover the dashboard's files and its SPA fallback too. Routes that are
        // meant to be framed by the dashboard (the template preview) set their own.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(DASHBOARD_CSP),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
}

/// The dashboard's Content-Security-Policy. `frame-ancestors 'none'` (with
/// `X-Frame-Options: DENY` for older browsers) keeps any other page, a tenant's site
/// included, from framing the dashboard to click-jack it. The policy stops there on purpose:
/// the editor's canvas is a `srcdoc` iframe, which inherits this policy, and runs the owner's
/// block code (inline scripts and styles, images, fonts and scripts from anywhere), so a
/// `script-src` or `default-src` here would break the canvas. `object-src 'none'` and
/// `base-uri 'self'` cost the canvas nothing.
pub const DASHBOARD_CSP: &str = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'";

/// The admin listener's routes: `/metrics` (Prometheus) and `/healthz`. Bound apart from the
/// public listener so that metrics are never exposed to visitors.
pub fn admin_router(state: AppState) -> Router {
    Router::new()
        .route(
            "/metrics",
            get(
                |axum::extract::State(state): axum::extract::State<AppState>| async move {
                    (
                        [(
                            header::CONTENT_TYPE,
                            "application/openmetrics-text; version=1.0.0; charset=utf-8",
                        )],
                        state.metrics.export(&state.store).await,
                    )
                },
            ),
        )
        .route("/healthz", get(|| async { "ok" }))
        .with_state(state)
}

/// A browsable page for the OpenAPI document, using the Swagger UI files the dashboard build
/// ships (from the `swagger-ui-dist` npm package; nothing is fetched from elsewhere).
async fn docs_page() -> impl IntoResponse {
    Html(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vitrine API</title>
<link rel="stylesheet" href="/swagger-ui/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/swagger-ui/init.js"></script></body></html>"#,
    )
}
