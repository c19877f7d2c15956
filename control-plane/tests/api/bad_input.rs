//! Every route against bad input: malformed JSON, wrong types, missing fields, oversized
//! bodies, a wrong content type, unknown ids, malformed ids and another user's ids. Each
//! answers 4xx with a JSON message, never 500, and nothing is written.
//!
//! The NUL character (U+0000), which PostgreSQL's text cannot hold, is sent to every operation
//! of the OpenAPI document (so a new route is covered the day it is added, and one this test
//! cannot exercise fails it): in each path parameter, in each query parameter and in the body,
//! as a string, a key and deep inside. Each answers 422 `nul_character` naming where.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::dual_test;
use vitrine_shared::ids::ProjectId;

use crate::{
    authz_matrix::{self, Access, Fixture, Role, World},
    helpers::{Session, TestApp, expect_error, json_ok, raw_request},
};

/// The ids a route's path can mention.
struct Ids {
    project: i64,
    page: i64,
    template: i64,
    table: i64,
    field: i64,
    post: i64,
    redirect: i64,
}

struct Route {
    method: Method,
    path: fn(&Ids) -> String,
    /// A body of the right shape with fields of the wrong JSON type; None: the route takes no body.
    wrong_types: Option<Value>,
    /// Whether `{}` is a complete, valid body for this route.
    empty_ok: bool,
}

fn routes() -> Vec<Route> {
    use Method as M;
    vec![
        Route {
            method: M::POST,
            path: |_| "/api/login".into(),
            wrong_types: Some(json!({"email": 1, "password": []})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |_| "/api/register".into(),
            wrong_types: Some(json!({"name": {}, "email": true, "password": 5})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |_| "/api/forgot".into(),
            wrong_types: Some(json!({"email": 42})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |_| "/api/new-password".into(),
            wrong_types: Some(json!({"email": 1, "password": 2, "token": 3})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |_| "/api/projects".into(),
            wrong_types: Some(json!({"name": 7, "meta": "x"})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/projects/{}", i.project),
            wrong_types: Some(json!({"name": [], "meta": {"fonts": "x"}})),
            empty_ok: true,
        },
        Route {
            method: M::POST,
            path: |_| "/api/dns-verify".into(),
            wrong_types: Some(json!({"project_id": "x", "domain": 1})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/remove-domain/{}", i.project),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::POST,
            path: |_| "/api/pages".into(),
            wrong_types: Some(json!({"name": 1, "project_id": "abc"})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/page/{}", i.page),
            wrong_types: Some(json!({"name": 1, "blocks": "x", "table_id": "y"})),
            empty_ok: true,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/templates/use/{}", i.template),
            wrong_types: Some(json!({"name": 9})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |_| "/api/templates".into(),
            wrong_types: Some(json!({"project_id": "x", "name": 1})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |_| "/api/upload".into(),
            wrong_types: Some(json!({"name": 1, "content": 2, "prefix": "x"})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/projects/{}/duplicate", i.project),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/projects/{}", i.project),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::DELETE,
            path: |i| format!("/api/projects/{}", i.project),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/project/{}/page/{}", i.project, i.page),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::DELETE,
            path: |i| format!("/api/page/{}", i.page),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::POST,
            path: |_| "/api/tables".into(),
            wrong_types: Some(json!({"project_id": "x", "name": 1, "meta": []})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/tables/{}", i.table),
            wrong_types: Some(json!({"name": 1, "meta": "x"})),
            empty_ok: true,
        },
        Route {
            method: M::POST,
            path: |_| "/api/fields".into(),
            wrong_types: Some(json!({"table_id": "x", "name": [], "type": 3})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/fields/{}", i.field),
            wrong_types: Some(json!({"name": [], "type": 3, "options": "x"})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |_| "/api/fields/reorder".into(),
            wrong_types: Some(json!({"fields": "x"})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |_| "/api/posts".into(),
            wrong_types: Some(json!({"table_id": "x", "name": 1})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/posts/{}", i.post),
            wrong_types: Some(json!({"name": [], "slug": 1})),
            empty_ok: true,
        },
        Route {
            method: M::DELETE,
            path: |_| "/api/posts".into(),
            wrong_types: Some(json!({"selected": "x"})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/tables/{}/import", i.table),
            wrong_types: Some(json!({"name": 1, "content": []})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/projects/{}/token", i.project),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/tables/{}", i.table),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/posts/{}", i.post),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/data/{}", i.table),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/tables/{}/export/csv", i.table),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/tables/{}/export/json", i.table),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/project/{}/db/{}/data", i.project, i.table),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::DELETE,
            path: |i| format!("/api/posts/{}", i.post),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::DELETE,
            path: |i| format!("/api/fields/{}", i.field),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::DELETE,
            path: |i| format!("/api/tables/{}", i.table),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/projects/{}/redirects", i.project),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::POST,
            path: |_| "/api/redirects".into(),
            wrong_types: Some(json!({"project_id": "x", "from": 1, "to": []})),
            empty_ok: false,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/redirects/{}", i.redirect),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/redirects/{}", i.redirect),
            wrong_types: Some(json!({"from": {}, "to": 2})),
            empty_ok: true,
        },
        Route {
            method: M::DELETE,
            path: |i| format!("/api/redirects/{}", i.redirect),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::GET,
            path: |i| format!("/api/projects/{}/form-history", i.project),
            wrong_types: None,
            empty_ok: true,
        },
        Route {
            method: M::DELETE,
            path: |i| format!("/api/projects/{}/form-history", i.project),
            wrong_types: Some(json!({"selected": "x"})),
            empty_ok: false,
        },
        Route {
            method: M::POST,
            path: |i| format!("/api/projects/{}/settings", i.project),
            wrong_types: Some(json!({"formHistoryOrderBy": 1})),
            empty_ok: false,
        },
    ]
}

async fn send_raw(
    app: &TestApp,
    s: &Session,
    method: &Method,
    path: &str,
    content_type: &str,
    body: Vec<u8>,
) -> reqwest::Response {
    s.client
        .request(method.clone(), app.url(path))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap()
}

async fn snapshot(app: &TestApp, s: &Session, project: i64) -> Value {
    let p = json_ok(app.get(s, &format!("/api/projects/{project}")).await).await;
    let tables = p["tables"].clone();
    let mut content = Vec::new();
    for t in tables.as_array().unwrap() {
        content.push(json_ok(app.get(s, &format!("/api/data/{}", t["id"])).await).await);
    }
    json!({"name": p["name"], "slug": p["slug"], "meta": p["meta"], "pages": p["pages"], "tables": tables, "content": content,
           "redirects": json_ok(app.get(s, &format!("/api/projects/{project}/redirects?limit=-1")).await).await,
           "form_history": json_ok(app.get(s, &format!("/api/projects/{project}/form-history?limit=-1")).await).await["history"],
           "count": json_ok(app.get(s, "/api/projects").await).await.as_array().unwrap().len()})
}

dual_test!(
    async fn every_route_answers_bad_input_with_a_json_4xx_and_writes_nothing(app: TestApp) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let owner = app.register("owner-bad@example.com").await;
        app.make_admin(&owner).await;
        let p = app.create_project(&owner, "Intacto").await;
        let project = p["id"].as_i64().unwrap();
        let page = json_ok(
            app.post(
                &owner,
                "/api/pages",
                json!({"name": "Sobre", "project_id": project}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        let template = json_ok(app.get(&owner, "/api/templates").await).await[0]["id"]
            .as_i64()
            .unwrap();
        let table = json_ok(app.post(&owner, "/api/tables", json!({"project_id": project, "name": "Itens", "meta": {"plural": "Itens", "singular": "Item"}})).await).await["id"].as_i64().unwrap();
        let field = json_ok(
            app.post(
                &owner,
                "/api/fields",
                json!({"table_id": table, "name": "Texto", "type": "text"}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        let post = json_ok(app.post(&owner, "/api/posts", json!({"table_id": table, "name": "Um", "fields": [{"field_id": field, "value": "x"}]})).await).await["id"].as_i64().unwrap();
        let redirect = json_ok(
            app.post(
                &owner,
                "/api/redirects",
                json!({"project_id": project, "from": "/antigo", "to": "/novo"}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        app.store
            .insert_submission(
                &vitrine_shared::store::NewSubmission {
                    uid: "bad-input-1".into(),
                    project_id: ProjectId(project),
                    url: "https://example.com/contato".into(),
                    submit: "Enviar".into(),
                    to: String::new(),
                    subject: "Contato".into(),
                    data: "<p>oi</p>".into(),
                    created_at: vitrine_shared::store::now(),
                },
                None,
            )
            .await
            .unwrap();
        let ids = Ids {
            project,
            page,
            template,
            table,
            field,
            post,
            redirect,
        };
        let before = snapshot(&app, &owner, project).await;

        let mut huge = br#"{"name": ""#.to_vec();
        huge.extend(std::iter::repeat_n(b'a', 24 * 1024 * 1024));
        huge.extend(br#""}"#);
        let mut huge_import = br#"{"name": ""#.to_vec();
        huge_import.extend(std::iter::repeat_n(b'a', 70 * 1024 * 1024));
        huge_import.extend(br#""}"#);

        for r in routes() {
            let path = (r.path)(&ids);
            let Some(wrong) = &r.wrong_types else {
                continue;
            };
            let what = format!("{} {path}", r.method);
            // Malformed JSON.
            let res = send_raw(
                &app,
                &owner,
                &r.method,
                &path,
                "application/json",
                br#"{"name": "#.to_vec(),
            )
            .await;
            let msg = expect_error(res, StatusCode::BAD_REQUEST).await;
            assert!(msg.starts_with("Malformed JSON"), "{what}: {msg}");
            // Wrong types.
            let res = send_raw(
                &app,
                &owner,
                &r.method,
                &path,
                "application/json",
                serde_json::to_vec(wrong).unwrap(),
            )
            .await;
            let msg = expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
            assert!(msg.starts_with("Invalid request"), "{what}: {msg}");
            // Not JSON at all.
            let res = send_raw(
                &app,
                &owner,
                &r.method,
                &path,
                "text/plain",
                b"name=x".to_vec(),
            )
            .await;
            expect_error(res, StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
            // Missing fields.
            if !r.empty_ok {
                let res = send_raw(
                    &app,
                    &owner,
                    &r.method,
                    &path,
                    "application/json",
                    b"{}".to_vec(),
                )
                .await;
                assert!(
                    res.status().is_client_error(),
                    "{what}: {{}} gave {}",
                    res.status()
                );
                expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
            }
            // Oversized.
            // Imports take files, so their limit is larger than other routes'.
            let body = if path.ends_with("/import") {
                huge_import.clone()
            } else {
                huge.clone()
            };
            let (status, body) = raw_request(
                &app.base,
                r.method.as_str(),
                &path,
                &owner.cookie,
                "application/json",
                body,
            )
            .await;
            assert_eq!(status, 413, "{what}: {body}");
            assert_eq!(body["error"], "too_large", "{what}: {body}");
        }
        assert_eq!(
            snapshot(&app, &owner, project).await,
            before,
            "bad input wrote nothing"
        );

        // Unknown, malformed and other users' ids.
        let stranger = app.register("stranger-bad@example.com").await;
        let unknown = Ids {
            project: 987654,
            page: 987654,
            template: 987654,
            table: 987654,
            field: 987654,
            post: 987654,
            redirect: 987654,
        };
        for r in routes() {
            let path_real = (r.path)(&ids);
            let path_unknown = (r.path)(&unknown);
            let body = if r.wrong_types.is_some() {
                Some(
                    json!({"name": "x", "project_id": 987654, "content": "data:text/csv;base64,", "selected": [], "formHistoryOrderBy": "created_at"}),
                )
            } else {
                None
            };
            if path_unknown != path_real {
                let res = app
                    .call(&owner, r.method.clone(), &path_unknown, body.clone())
                    .await;
                expect_error(res, StatusCode::NOT_FOUND).await;
                let mut malformed = path_real.clone();
                for id in [project, page, template, table, field, post, redirect] {
                    malformed = malformed.replace(&format!("/{id}/"), "/abc/");
                    if let Some(stripped) = malformed.strip_suffix(&format!("/{id}")) {
                        malformed = format!("{stripped}/abc");
                    }
                }
                let res = app
                    .call(&owner, r.method.clone(), &malformed, body.clone())
                    .await;
                expect_error(res, StatusCode::NOT_FOUND).await;
                // Templates are not project-scoped: only the project and page routes are owned.
                if !path_real.contains("/templates/") {
                    let res = app
                        .call(&stranger, r.method.clone(), &path_real, body.clone())
                        .await;
                    expect_error(res, StatusCode::NOT_FOUND).await;
                }
            }
        }
        // Calls naming another user's project in the body.
        for (path, body) in [
            ("/api/pages", json!({"name": "x", "project_id": project})),
            (
                "/api/templates",
                json!({"name": "x", "project_id": project}),
            ),
            (
                "/api/upload",
                json!({"name": "a.png", "content": "data:image/png;base64,iVBORw0KGgo=", "prefix": [owner.id(), project]}),
            ),
        ] {
            let res = app.post(&stranger, path, body).await;
            // Saving a template is for administrators (403) before the project is even looked at.
            let want = if path == "/api/templates" {
                StatusCode::FORBIDDEN
            } else {
                StatusCode::NOT_FOUND
            };
            expect_error(res, want).await;
        }
        assert_eq!(
            snapshot(&app, &owner, project).await,
            before,
            "other users wrote nothing"
        );
        // Signed-out callers get 401 on every private route.
        let anon = Session {
            client: TestApp::client(),
            user: Value::Null,
            cookie: String::new(),
        };
        for r in routes()
            .into_iter()
            .filter(|r| !(r.path)(&ids).starts_with("/api/login"))
        {
            let path = (r.path)(&ids);
            if ["/api/register", "/api/forgot", "/api/new-password"].contains(&path.as_str()) {
                continue;
            }
            let res = app
                .call(&anon, r.method.clone(), &path, Some(json!({})))
                .await;
            expect_error(res, StatusCode::UNAUTHORIZED).await;
        }
        // Unknown API paths are JSON 404s, not the dashboard.
        expect_error(
            app.get(&owner, "/api/nothing-here").await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

/// The role a route is called as, so that the call gets past sign-in and role checks to where
/// its input is read: the owner of the fixture's project, the administrator for the
/// administrators' screens, business B's administrator for its members, the client-panel
/// token for the client panel.
fn nul_caller(access: Access) -> Role {
    match access {
        Access::Admin | Access::AdminProject => Role::Admin,
        Access::Business
        | Access::BusinessMember
        | Access::BusinessLibrary
        | Access::BusinessLibraryAdd
        | Access::BusinessBlock => Role::BusinessAdmin,
        Access::ClientPanel => Role::ClientToken,
        Access::Public
        | Access::Signed
        | Access::Project
        | Access::Records
        | Access::Own
        | Access::Impersonating => Role::Owner,
    }
}

/// Sends one call as `role`; returns the status and the JSON body.
async fn send_as(
    app: &TestApp,
    w: &World,
    role: Role,
    f: &Fixture,
    method: &Method,
    path: &str,
    body: Option<&Value>,
) -> (StatusCode, Value) {
    let res = authz_matrix::request(app, w, role, method, path, body, &f.token).await;
    let status = res.status();
    let text = res.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// `template` with its parameter `name` holding `{real value}%00` and the others filled.
fn path_with_nul(template: &str, name: &str, f: &Fixture) -> String {
    const MARK: &str = "\u{1}";
    let full = authz_matrix::fill(template, f);
    let marked = authz_matrix::fill(&template.replace(&format!("{{{name}}}"), MARK), f);
    let value = marked
        .split('/')
        .zip(full.split('/'))
        .find(|(m, _)| *m == MARK)
        .map(|(_, v)| v.to_string())
        .unwrap_or_else(|| {
            panic!(
                "{name} is documented as a path parameter of {template}, which has no {{{name}}}: \
                 a query struct needs #[into_params(parameter_in = Query)]"
            )
        });
    marked.replace(MARK, &format!("{value}%00"))
}

/// Every string of `body` with a NUL appended (a `name` holding one when it has no string).
fn nul_in_every_string(body: &Value) -> Value {
    /// Whether `v` held a string; every one is changed, not only the first.
    fn walk(v: &mut Value) -> bool {
        let mut found = false;
        match v {
            Value::String(s) => {
                s.push('\0');
                found = true;
            }
            Value::Array(items) => items.iter_mut().for_each(|i| found |= walk(i)),
            Value::Object(map) => map.values_mut().for_each(|i| found |= walk(i)),
            _ => {}
        }
        found
    }
    let mut body = body.clone();
    if !walk(&mut body) {
        body["name"] = json!("\0");
    }
    body
}

/// A body with `extra` added to its fields (replacing one of the same name).
fn with(body: &Value, extra: Value) -> Value {
    let mut body = body.clone();
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

/// What the answer to a NUL must be: 422 `nul_character` naming `field`.
fn check_nul_answer(
    what: &str,
    (status, body): (StatusCode, Value),
    field: &str,
    failures: &mut Vec<String>,
) {
    if status != StatusCode::UNPROCESSABLE_ENTITY
        || body["error"] != "nul_character"
        || body["field"] != field
        || !body["message"].is_string()
    {
        failures.push(format!(
            "{what}: {status} {body}, expected 422 nul_character at {field:?}"
        ));
    }
}

/// What the NUL calls must not change: the project, the library, the templates, the accounts.
async fn world_snapshot(app: &TestApp, w: &World, f: &Fixture) -> Value {
    let owner = w.session(Role::Owner);
    let admin = w.session(Role::Admin);
    json!({
        "project": snapshot(app, owner, f.project).await,
        "library": json_ok(app.get(admin, "/api/blocks").await).await,
        "templates": json_ok(app.get(owner, "/api/templates").await).await,
        "owner": json_ok(app.get(owner, "/api/user").await).await,
        "admin": json_ok(app.get(admin, "/api/user").await).await,
        "users": json_ok(app.get(admin, "/api/users").await).await,
    })
}

dual_test!(
    async fn every_route_refuses_a_nul_in_its_path_query_or_body_and_writes_nothing(app: TestApp) {
        let w = authz_matrix::world(&app).await;
        let f = authz_matrix::fixture(&app, &w, true).await;
        let doc: Value = json_ok(app.get(w.session(Role::Owner), "/api/openapi.json").await).await;
        let before = world_snapshot(&app, &w, &f).await;
        let mut failures = Vec::new();
        let mut operations = 0;
        for (template, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
                let role = nul_caller(authz_matrix::access(&method, template));
                let what = format!("{method} {template} as {role:?}");
                let path = authz_matrix::fill(template, &f);
                operations += 1;
                let params = op["parameters"].as_array().cloned().unwrap_or_default();
                for p in &params {
                    let name = p["name"].as_str().unwrap();
                    let nul_path = match p["in"].as_str() {
                        Some("path") => path_with_nul(template, name, &f),
                        Some("query") => format!("{path}?{name}=x%00"),
                        other => panic!("{what}: cannot send a NUL in a parameter in {other:?}"),
                    };
                    let answer = send_as(&app, &w, role, &f, &method, &nul_path, None).await;
                    check_nul_answer(&format!("{what}: {nul_path}"), answer, name, &mut failures);
                }
                // A query key the operation does not know, with the NUL in the key.
                let odd_key = format!("{path}?odd%00key=1");
                let answer = send_as(&app, &w, role, &f, &method, &odd_key, None).await;
                check_nul_answer(
                    &format!("{what}: {odd_key}"),
                    answer,
                    "odd\\u0000key",
                    &mut failures,
                );

                let Some(content) = op["requestBody"]["content"].as_object() else {
                    continue;
                };
                assert!(
                    content.contains_key("application/json"),
                    "{what}: cannot send a NUL in a {:?} body; teach this test that type",
                    content.keys().collect::<Vec<_>>()
                );
                // A body that is valid but for the NUL, so that without the refusal the NUL
                // would reach the database.
                let caller = authz_matrix::caller(&w, role);
                let valid = authz_matrix::body(&method, template, &f, caller)
                    .filter(Value::is_object)
                    .unwrap_or_else(|| json!({}));
                for body in [
                    nul_in_every_string(&valid),
                    with(&valid, json!({"\u{0}": "a key"})),
                    with(
                        &valid,
                        json!({"zz": {"deep": [1, {"deeper": ["ok", "\u{0}"]}]}}),
                    ),
                ] {
                    let field = vitrine_control::nul::nul_path(&body).unwrap();
                    let answer = send_as(&app, &w, role, &f, &method, &path, Some(&body)).await;
                    check_nul_answer(
                        &format!("{what}: body {body}"),
                        answer,
                        &field,
                        &mut failures,
                    );
                }
            }
        }
        assert!(
            operations > 100,
            "only {operations} operations in the document"
        );
        assert!(
            failures.is_empty(),
            "{} calls were not refused as NUL:\n{}",
            failures.len(),
            failures.join("\n")
        );
        assert_eq!(
            world_snapshot(&app, &w, &f).await,
            before,
            "a NUL call wrote something"
        );
    }
);

dual_test!(
    async fn an_import_file_holding_a_nul_is_refused_whole_and_writes_nothing(app: TestApp) {
        use base64::Engine;
        let owner = app.register("nul-import@example.com").await;
        let project = app.create_project(&owner, "Importa").await["id"]
            .as_i64()
            .unwrap();
        let table = json_ok(app.post(&owner, "/api/tables", json!({"project_id": project, "name": "Itens", "meta": {"plural": "Itens", "singular": "Item"}})).await).await["id"].as_i64().unwrap();
        json_ok(
            app.post(
                &owner,
                "/api/fields",
                json!({"table_id": table, "name": "Texto", "type": "text"}),
            )
            .await,
        )
        .await;
        let data = |name: &str, text: &str| {
            json!({"name": name, "content": format!("data:text/plain;base64,{}",
                base64::engine::general_purpose::STANDARD.encode(text))})
        };
        let before = json_ok(app.get(&owner, &format!("/api/data/{table}")).await).await;
        for (file, row, column) in [
            // A raw NUL byte on the third line of a CSV file, after two good rows.
            (
                data("itens.csv", "name,texto\nUm,a\nDois,b\0c\n"),
                3,
                Value::Null,
            ),
            // JSON writes it as an escape, in the second row.
            (
                data(
                    "itens.json",
                    r#"[{"name": "Um", "texto": "a"}, {"name": "Dois", "texto": "b\u0000c"}]"#,
                ),
                2,
                json!("texto"),
            ),
        ] {
            let res = app
                .post(&owner, &format!("/api/tables/{table}/import"), file)
                .await;
            assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
            let body: Value = res.json().await.unwrap();
            assert_eq!(body["details"][0]["row"], row, "{body}");
            assert_eq!(body["details"][0]["column"], column, "{body}");
            assert!(body["message"].as_str().unwrap().contains("NUL"), "{body}");
        }
        assert_eq!(
            json_ok(app.get(&owner, &format!("/api/data/{table}")).await).await,
            before,
            "no row of a refused file was written"
        );
    }
);
