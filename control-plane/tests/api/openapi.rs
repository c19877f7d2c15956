//! The OpenAPI document covers every route.

use serde_json::Value;
use vitrine_shared::testing::Backend;

use crate::helpers::TestApp;

/// The document as the server serves it.
pub(crate) async fn openapi(app: &TestApp) -> Value {
    reqwest::get(app.url("/api/openapi.json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_openapi_document_lists_every_route_and_has_a_page() {
    let app = TestApp::new(Backend::Sqlite).await;
    let doc = openapi(&app).await;
    let paths = doc["paths"].as_object().unwrap();
    let expected: &[(&str, &[&str])] = &[
        ("/api/config", &["get"]),
        ("/api/user", &["get", "post"]),
        ("/api/user/password", &["post"]),
        ("/api/user/storage", &["get"]),
        ("/api/plans", &["get"]),
        ("/api/transactions/balance", &["get"]),
        ("/api/transactions/{month}", &["get"]),
        ("/api/transactions/{month}/{day}", &["get"]),
        ("/api/users", &["get"]),
        ("/api/loginWith/{id}", &["post"]),
        ("/api/loginBack", &["post"]),
        ("/api/stripe-config", &["get"]),
        ("/api/stripe-setup-intent/{user_id}", &["get"]),
        (
            "/api/stripe-set-default-payment-method/{user_id}/{payment_method}",
            &["post"],
        ),
        ("/api/business/users", &["get", "post"]),
        ("/api/business/users/{id}", &["get", "post"]),
        ("/api/business/blocks", &["get", "post"]),
        ("/api/business/blocks/{id}", &["post", "delete"]),
        ("/api/login", &["post"]),
        ("/api/register", &["post"]),
        ("/api/logout", &["get"]),
        ("/api/forgot", &["post"]),
        ("/api/new-password", &["post"]),
        ("/api/projects", &["get", "post"]),
        ("/api/projects/{id}", &["get", "post", "delete"]),
        ("/api/projects/{id}/duplicate", &["post"]),
        ("/api/dns-verify", &["post"]),
        ("/api/remove-domain/{id}", &["post"]),
        ("/api/pages", &["post"]),
        ("/api/page/{id}", &["post", "delete"]),
        ("/api/project/{id}/page/{page_id}", &["get"]),
        ("/api/project/{id}/page/{page_id}/preview", &["get"]),
        ("/api/templates", &["get", "post"]),
        ("/api/templates/use/{template_id}", &["post"]),
        ("/api/templates/{id}", &["get"]),
        ("/api/templates/{id}/preview", &["get"]),
        ("/api/upload", &["post"]),
        ("/api/tables", &["post"]),
        ("/api/tables/{id}", &["get", "post", "delete"]),
        ("/api/fields", &["post"]),
        ("/api/fields/reorder", &["post"]),
        ("/api/fields/{id}", &["post", "delete"]),
        ("/api/posts", &["post", "delete"]),
        ("/api/posts/{id}", &["get", "post", "delete"]),
        ("/api/data/{table_id}", &["get"]),
        ("/api/project/{id}/db/{table}/data", &["get"]),
        ("/api/tables/{id}/export/csv", &["get"]),
        ("/api/tables/{id}/export/json", &["get"]),
        ("/api/tables/{id}/import", &["post"]),
        ("/api/publish_v2/{id}", &["post"]),
        ("/api/publish/{id}", &["post"]),
        ("/api/unpublish/{id}", &["post"]),
        ("/api/projects/{id}/deploys", &["get"]),
        ("/api/projects/{id}/deploys/{deploy_id}/activate", &["post"]),
        ("/api/projects/{id}/redirects", &["get"]),
        ("/api/redirects", &["post"]),
        ("/api/redirects/{id}", &["get", "post", "delete"]),
        ("/api/projects/{id}/form-history", &["get", "delete"]),
        ("/api/projects/{id}/form-history/export", &["get"]),
        ("/api/projects/{id}/settings", &["post"]),
        ("/api/client/project", &["get"]),
        ("/api/projects/{id}/token", &["post"]),
        ("/api/projects/{id}/sheet-token", &["get", "post"]),
        ("/google-sheets/{project_id}/{token}", &["post"]),
        ("/files/{key}", &["get"]),
        ("/api/blocks", &["get"]),
        ("/api/block-categories/blocks", &["get"]),
        ("/api/newMyBlock", &["post"]),
        ("/api/block/{id}", &["delete"]),
        ("/api/newBlock", &["post"]),
        ("/api/project/{id}/render", &["post"]),
        ("/api/project/{id}/sections", &["get"]),
        ("/api/project/{id}/sections/{kind}", &["post", "delete"]),
        (
            "/api/project/{id}/page/{page_id}/sections/{kind}",
            &["post"],
        ),
        ("/api/fetch", &["get"]),
        ("/erp/block", &["post"]),
        ("/erp/block/{id}", &["post"]),
        ("/erp/reorder-block/{id}", &["post"]),
        ("/erp/delete-block/{id}", &["post"]),
        ("/erp/category", &["post"]),
        ("/erp/category/{id}", &["post"]),
        ("/erp/reorder-category/{id}", &["post"]),
        ("/erp/delete-category/{id}", &["post"]),
        ("/erp/truncate", &["post"]),
        ("/erp/import-categories", &["post"]),
        ("/erp/import-blocks", &["post"]),
        ("/erp/searchBlocks", &["post"]),
        ("/erp/export-block/{id}", &["get"]),
        ("/erp/export-categories", &["get"]),
        ("/erp/export-blocks", &["get"]),
        ("/api/block-screenshot/{id}", &["get"]),
        ("/api/template-screenshot/{id}", &["get"]),
        ("/erp/templateList", &["get"]),
        ("/erp/template/{id}", &["post"]),
        ("/erp/reorder-template/{id}", &["post"]),
        ("/erp/delete-template/{id}", &["post"]),
        ("/api/edges", &["get"]),
        ("/api/projects/{id}/form-email", &["get", "post"]),
        ("/api/projects/{id}/identity", &["get", "put"]),
        ("/api/projects/{id}/theme", &["get", "put"]),
        ("/api/projects/{id}/form-email/resend", &["post"]),
        ("/api/form-email/confirm", &["post"]),
        ("/api/user/email-confirmation", &["post"]),
        ("/api/confirm-email", &["post"]),
        ("/api/publish_v2/{id}/events", &["post"]),
        ("/erp/thumbnails", &["get", "post"]),
        ("/erp/photos", &["get", "post"]),
        ("/api/projects/{id}/analytics", &["get"]),
        (
            "/api/projects/{id}/deploys/{deploy_id}/screenshot",
            &["get"],
        ),
    ];
    for (path, methods) in expected {
        let item = paths
            .get(*path)
            .unwrap_or_else(|| panic!("{path} missing from OpenAPI"));
        for m in *methods {
            assert!(item.get(*m).is_some(), "{m} {path} missing");
        }
    }
    assert_eq!(
        paths.len(),
        expected.len(),
        "undocumented or unexpected paths: {:?}",
        paths.keys().collect::<Vec<_>>()
    );
    let page = reqwest::get(app.url("/api/docs"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("swagger-ui-bundle.js"));
}

/// Every code the server can send is in the document (the `ErrorCode` enum that every error
/// body's `error` refers to), and it is the list the dashboard's catalogue test reads.
#[tokio::test]
async fn the_openapi_document_lists_every_error_code() {
    let app = TestApp::new(Backend::Sqlite).await;
    let doc = openapi(&app).await;
    let schemas = &doc["components"]["schemas"];
    let listed: Vec<&str> = schemas["ErrorCode"]["enum"]
        .as_array()
        .expect("an ErrorCode enum")
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let all: Vec<&str> = vitrine_shared::error_code::ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    assert_eq!(listed, all);
    let file: Vec<String> =
        serde_json::from_str(include_str!("../../../shared/testdata/error-codes.json")).unwrap();
    assert_eq!(file, all);
    assert_eq!(
        schemas["ErrorBody"]["properties"]["error"]["$ref"],
        "#/components/schemas/ErrorCode"
    );
    assert_eq!(
        schemas["Problem"]["properties"]["code"]["$ref"],
        "#/components/schemas/ErrorCode"
    );
}

/// The committed document, `api/openapi.json`: what the dashboard's types are generated from
/// (`npm run api:types` in `dashboard/`), so every change to the API shows up as a diff of it.
const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../api/openapi.json");

/// The document as committed: pretty-printed JSON with keys in sorted order (serde_json's map
/// is ordered by key), two-space indent, and a final newline.
fn committed_text(doc: &Value) -> String {
    let mut text = serde_json::to_string_pretty(doc).unwrap();
    text.push('\n');
    text
}

/// The server's document is the committed `api/openapi.json`. After an API change, rewrite the
/// file with `VITRINE_UPDATE_OPENAPI=1 cargo nextest run -p vitrine-control-plane openapi`, then
/// `npm run api:types` in `dashboard/`, and commit both.
#[tokio::test]
async fn the_openapi_document_is_the_committed_one() {
    let app = TestApp::new(Backend::Sqlite).await;
    let served = committed_text(&openapi(&app).await);
    if std::env::var_os("VITRINE_UPDATE_OPENAPI").is_some_and(|v| v == "1") {
        std::fs::write(COMMITTED, &served).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(COMMITTED).unwrap_or_default();
    if served != committed {
        let line = served
            .lines()
            .zip(committed.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| served.lines().count().min(committed.lines().count()));
        panic!(
            "the server's OpenAPI document differs from api/openapi.json (first at line {}).\n\
             Rewrite it with `VITRINE_UPDATE_OPENAPI=1 cargo nextest run -p vitrine-control-plane \
             openapi`, regenerate the dashboard's types with `npm run api:types` in dashboard/, \
             and commit both.",
            line + 1
        );
    }
}
