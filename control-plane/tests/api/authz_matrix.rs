//! The authorization matrix: every route of the OpenAPI document (so a new route cannot be left
//! out: an unclassified one fails the test) against every role, checking the status each gets.
//!
//! Roles: anonymous; the project's owner (a member of business B with access to all
//! projects); a stranger; members of B with a whitelist naming the project, a blacklist naming
//! it, and all projects; B's administrator; another business's administrator; the platform
//! administrator; and the project's client-panel token.
//!
//! What "allowed" means: the call got past authorization (not 401, 403 or 404, and never a
//! 5xx). Denied: exactly 401 without a session, 404 for a project (or record) the role may not
//! see, 403 for a screen the role may not use. Every allowed call runs on fresh fixtures, so a
//! deleting call does not take them from the next role.

use std::collections::BTreeMap;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::ids::{AccountId, BusinessId, DeployId, ProjectId};
use vitrine_shared::{dual_test, store::Permissions};

use crate::helpers::{Session, TestApp, json_ok};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Role {
    Anonymous,
    Owner,
    Stranger,
    Whitelisted,
    Blacklisted,
    AllProjects,
    BusinessAdmin,
    OtherBusinessAdmin,
    Admin,
    ClientToken,
}

use Role::*;

const ROLES: [Role; 10] = [
    Anonymous,
    Owner,
    Stranger,
    Whitelisted,
    Blacklisted,
    AllProjects,
    BusinessAdmin,
    OtherBusinessAdmin,
    Admin,
    ClientToken,
];

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Anyone, signed in or not (only called anonymously: some end the session).
    Public,
    /// Any signed-in user.
    Signed,
    /// Whoever may see the project (404 for the others).
    Project,
    /// Like `Project`, and the project's client-panel token too.
    Records,
    /// The signed-in user's own resource named in the path (404 for anyone else).
    Own,
    /// Platform administrators (403 for other users).
    Admin,
    /// The caller's business's library: any business's members read their own (404 outside
    /// a business).
    BusinessLibrary,
    /// Adding to the caller's business's library: any business's administrators (403 for
    /// other members, 404 outside a business).
    BusinessLibraryAdd,
    /// A block of business B's library: B's administrator (403 for B's other members, 404
    /// for everyone outside B).
    BusinessBlock,
    /// Business administrators, for their own business's members (404 for another
    /// business's administrator, 403 for other users).
    BusinessMember,
    /// Business administrators (403 for other users).
    Business,
    /// Platform administrators, for a project they may see.
    AdminProject,
    /// Nobody here (only a session signed in as someone else may return): 403.
    Impersonating,
    /// Only the client-panel token (signed-in users are not a client panel: 404).
    ClientPanel,
}

pub(crate) fn access(method: &Method, path: &str) -> Access {
    use Access::*;
    let m = method.as_str();
    match (m, path) {
        (
            _,
            "/api/config" | "/api/login" | "/api/register" | "/api/logout" | "/api/forgot"
            | "/api/new-password",
        ) => Public,
        // Whoever reads the mailbox holds the token: no account needed.
        (_, "/api/form-email/confirm" | "/api/confirm-email") => Public,
        (_, "/files/{key}" | "/google-sheets/{project_id}/{token}") => Public,
        (_, "/api/client/project") => ClientPanel,
        // Prices are public.
        (_, "/api/plans") => Public,
        (
            _,
            "/api/user"
            | "/api/user/password"
            | "/api/user/storage"
            | "/api/user/email-confirmation"
            | "/api/transactions/balance"
            | "/api/transactions/{month}"
            | "/api/transactions/{month}/{day}",
        ) => Signed,
        (_, "/api/stripe-config") => Signed,
        (
            _,
            "/api/stripe-setup-intent/{user_id}"
            | "/api/stripe-set-default-payment-method/{user_id}/{payment_method}",
        ) => Own,
        (_, "/api/users" | "/api/loginWith/{id}" | "/api/edges") => Admin,
        (_, "/api/loginBack") => Impersonating,
        (_, "/api/business/users") => Business,
        (_, "/api/business/users/{id}") => BusinessMember,
        ("GET" | "POST", "/api/projects") => Signed,
        (_, "/api/templates") if m == "GET" => Signed,
        (_, "/api/templates") => AdminProject,
        (
            _,
            "/api/templates/use/{template_id}"
            | "/api/templates/{id}"
            | "/api/templates/{id}/preview",
        ) => Signed,
        (_, "/api/blocks" | "/api/block-categories/blocks" | "/api/newMyBlock" | "/api/fetch") => {
            Signed
        }
        (_, "/api/block/{id}") => Own,
        (_, "/api/newBlock") => Admin,
        ("GET", "/api/business/blocks") => BusinessLibrary,
        (_, "/api/business/blocks") => BusinessLibraryAdd,
        (_, "/api/business/blocks/{id}") => BusinessBlock,
        (_, p) if p.starts_with("/erp/") => Admin,
        (_, "/api/block-screenshot/{id}" | "/api/template-screenshot/{id}") => Admin,
        (_, "/api/upload") => Records,
        (
            _,
            "/api/tables/{id}"
            | "/api/posts"
            | "/api/posts/{id}"
            | "/api/data/{table_id}"
            | "/api/project/{id}/db/{table}/data"
            | "/api/tables/{id}/export/csv"
            | "/api/tables/{id}/export/json"
            | "/api/tables/{id}/import",
        ) if !(m == "POST" || m == "DELETE")
            || path.starts_with("/api/posts")
            || path.ends_with("/import") =>
        {
            Records
        }
        (_, p)
            if p.starts_with("/api/projects/")
                || p.starts_with("/api/project/")
                || p.starts_with("/api/page")
                || p.starts_with("/api/tables")
                || p.starts_with("/api/fields")
                || p.starts_with("/api/redirects")
                || p.starts_with("/api/publish")
                || p.starts_with("/api/unpublish")
                || p == "/api/remove-domain/{id}"
                || p == "/api/dns-verify" =>
        {
            Project
        }
        _ => panic!("{m} {path} is not classified in the authorization matrix: add it to `access`"),
    }
}

fn allowed(access: Access, role: Role) -> bool {
    use Access as A;
    match access {
        A::Public => true,
        A::Signed => !matches!(role, Anonymous | ClientToken),
        A::Project => matches!(
            role,
            Owner | Whitelisted | AllProjects | BusinessAdmin | Admin
        ),
        A::Records => matches!(
            role,
            Owner | Whitelisted | AllProjects | BusinessAdmin | Admin | ClientToken
        ),
        A::Own => role == Owner,
        A::Admin | A::AdminProject => role == Admin,
        A::BusinessLibrary => matches!(
            role,
            Owner | Whitelisted | Blacklisted | AllProjects | BusinessAdmin | OtherBusinessAdmin
        ),
        A::BusinessLibraryAdd => matches!(role, BusinessAdmin | OtherBusinessAdmin),
        A::BusinessBlock => role == BusinessAdmin,
        A::BusinessMember => role == BusinessAdmin,
        A::Business => matches!(role, BusinessAdmin | OtherBusinessAdmin),
        A::Impersonating => false,
        A::ClientPanel => role == ClientToken,
    }
}

/// The status a role that is not allowed gets.
fn denied(access: Access, role: Role) -> StatusCode {
    use Access as A;
    match (role, access) {
        (Anonymous, _) => StatusCode::UNAUTHORIZED,
        // A token is tried first on the calls that take one and names nothing else; elsewhere
        // there is no session.
        (ClientToken, A::Records | A::ClientPanel) => StatusCode::NOT_FOUND,
        (ClientToken, _) => StatusCode::UNAUTHORIZED,
        (_, A::Project | A::Records | A::Own | A::ClientPanel) => StatusCode::NOT_FOUND,
        (OtherBusinessAdmin, A::BusinessMember) => StatusCode::NOT_FOUND,
        // Outside any business there is no business library; outside B, B's blocks are not found.
        (Stranger | Admin, A::BusinessLibrary | A::BusinessLibraryAdd | A::BusinessBlock) => {
            StatusCode::NOT_FOUND
        }
        (OtherBusinessAdmin, A::BusinessBlock) => StatusCode::NOT_FOUND,
        _ => StatusCode::FORBIDDEN,
    }
}

/// One set of resources the route's path and body can name, made fresh for each call.
pub(crate) struct Fixture {
    owner_id: i64,
    pub(crate) project: i64,
    pub(crate) token: String,
    /// The project's spreadsheet-link token (apart from the client panel's).
    sheet_token: String,
    page: i64,
    table: i64,
    table_slug: String,
    field: i64,
    post: i64,
    redirect: i64,
    deploy: i64,
    template: i64,
    category: i64,
    block: i64,
    my_block: i64,
    /// A block of business B's library.
    business_block: i64,
}

pub(crate) struct World {
    sessions: BTreeMap<Role, Session>,
}

impl World {
    pub(crate) fn session(&self, role: Role) -> &Session {
        &self.sessions[&role]
    }
}

pub(crate) async fn fixture(app: &TestApp, w: &World, publish: bool) -> Fixture {
    let owner = w.session(Owner);
    let admin = w.session(Admin);
    let p = app.create_project(owner, "Matriz").await;
    let project = p["id"].as_i64().unwrap();
    for (role, perms) in [
        (
            Whitelisted,
            Permissions {
                projects_whitelist: Some(vec![ProjectId(project)]),
                ..Default::default()
            },
        ),
        (
            Blacklisted,
            Permissions {
                projects_blacklist: Some(vec![ProjectId(project)]),
                ..Default::default()
            },
        ),
    ] {
        let s = w.session(role);
        let business = s.user["business_id"].as_i64();
        app.store
            .set_user_business(AccountId(s.id()), business.map(BusinessId), false, &perms)
            .await
            .unwrap();
    }
    let page = json_ok(
        app.post(
            owner,
            "/api/pages",
            json!({"name": "Sobre", "project_id": project}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let table_view = json_ok(
        app.post(owner, "/api/tables", json!({"project_id": project, "name": "Itens", "meta": {"plural": "Itens", "singular": "Item"}}))
            .await,
    )
    .await;
    let table = table_view["id"].as_i64().unwrap();
    let field = json_ok(
        app.post(
            owner,
            "/api/fields",
            json!({"table_id": table, "name": "Texto", "type": "text"}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let post = json_ok(
        app.post(
            owner,
            "/api/posts",
            json!({"table_id": table, "name": "Um", "fields": [{"field_id": field, "value": "x"}]}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let redirect = json_ok(
        app.post(
            owner,
            "/api/redirects",
            json!({"project_id": project, "from": "/antigo", "to": "/novo"}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let deploy = if publish {
        json_ok(
            app.post(
                owner,
                &format!("/api/publish_v2/{project}"),
                json!({"project_id": project, "token": "x"}),
            )
            .await,
        )
        .await["deploy"]["id"]
            .as_i64()
            .unwrap_or(0)
    } else {
        0
    };
    if publish {
        // The deploy's picture, as the background screenshot would store it (pictures are off
        // in the tests), so the route that serves it has something to serve the allowed.
        let key = vitrine_control::pictures::screenshot::site_shot_key(
            ProjectId(project),
            DeployId(deploy),
        );
        app.app
            .state()
            .blobs
            .put(&key, bytes::Bytes::from_static(b"\x89PNG\r\n\x1a\n"))
            .await
            .unwrap();
    }
    let template = json_ok(
        app.post(
            admin,
            "/api/templates",
            json!({"project_id": project, "name": format!("Tema {project}")}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let category = json_ok(
        app.post(
            admin,
            "/erp/category",
            json!({"name": format!("Categoria {project}")}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let block = json_ok(
        app.post(admin, "/erp/block", json!({"name": format!("Bloco {project}"), "category_id": category, "template": "<p>oi</p>"})).await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let sheet_token = json_ok(
        app.post(
            owner,
            &format!("/api/projects/{project}/sheet-token"),
            json!({}),
        )
        .await,
    )
    .await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let my_block = json_ok(
        app.post(
            owner,
            "/api/newMyBlock",
            json!({"name": format!("Meu {project}"), "template": "<p>meu</p>"}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    // B's library starts afresh with each fixture: it holds a capped number of blocks.
    let b = w.session(BusinessAdmin).user["business_id"]
        .as_i64()
        .unwrap();
    for old in app.store.business_blocks(BusinessId(b)).await.unwrap() {
        app.store
            .delete_business_block(BusinessId(b), old.id)
            .await
            .unwrap();
    }
    let business_block = json_ok(
        app.post(
            w.session(BusinessAdmin),
            "/api/business/blocks",
            json!({"name": format!("Da empresa {project}"), "template": "<p>b</p>"}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    Fixture {
        owner_id: owner.id(),
        project,
        token: p["token"].as_str().unwrap().to_string(),
        sheet_token,
        page,
        table,
        table_slug: table_view["slug"].as_str().unwrap().to_string(),
        field,
        post,
        redirect,
        deploy,
        template,
        category,
        block,
        my_block,
        business_block,
    }
}

/// The route's path with its parameters filled from the fixture.
pub(crate) fn fill(path: &str, f: &Fixture) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').unwrap() + start;
        let name = &rest[start + 1..end];
        let value = match (path, name) {
            (p, "id") if p.starts_with("/api/projects/") || p.starts_with("/api/project/") => {
                f.project.to_string()
            }
            (p, "id" | "project_id")
                if p.starts_with("/api/remove-domain")
                    || p.starts_with("/api/publish")
                    || p.starts_with("/api/unpublish")
                    || p.starts_with("/google-sheets") =>
            {
                f.project.to_string()
            }
            ("/api/page/{id}", _) | (_, "page_id") => f.page.to_string(),
            (p, "id") if p.starts_with("/api/tables/") => f.table.to_string(),
            (_, "table_id") => f.table.to_string(),
            (_, "table") => f.table_slug.clone(),
            ("/api/fields/{id}", _) => f.field.to_string(),
            ("/api/posts/{id}", _) => f.post.to_string(),
            ("/api/redirects/{id}", _) => f.redirect.to_string(),
            (_, "deploy_id") => f.deploy.to_string(),
            (p, "id" | "template_id") if p.contains("template") => f.template.to_string(),
            ("/api/block/{id}", _) => f.my_block.to_string(),
            ("/api/business/blocks/{id}", _) => f.business_block.to_string(),
            (p, "id") if p.contains("category") => f.category.to_string(),
            (p, "id") if p.contains("block") => f.block.to_string(),
            ("/api/loginWith/{id}" | "/api/business/users/{id}", _) | (_, "user_id") => {
                f.owner_id.to_string()
            }
            (_, "payment_method") => "pm_1".into(),
            (_, "month") => "2026-11".into(),
            (_, "day") => "01".into(),
            (p, "token") if p.starts_with("/google-sheets") => f.sheet_token.clone(),
            (_, "token") => f.token.clone(),
            (_, "key") => "nada.png".into(),
            (_, "kind") => "header".into(),
            _ => panic!("no value for {{{name}}} in {path}"),
        };
        out.push_str(&value);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A body naming the fixture where the route reads ids from its body.
/// Valid bodies, so that authorization (not validation) decides; an upload goes to the
/// caller's own folder (`caller`), inside the fixture's project and table.
pub(crate) fn body(method: &Method, path: &str, f: &Fixture, caller: i64) -> Option<Value> {
    if *method == Method::GET {
        return None;
    }
    Some(match path {
        "/api/pages" | "/api/tables" | "/api/redirects" | "/api/dns-verify" | "/api/templates" => {
            json!({"project_id": f.project, "name": "Nova", "from": "/x", "to": "/y", "domain": "não é domínio", "meta": {"plural": "A", "singular": "B"}})
        }
        "/api/fields" => json!({"table_id": f.table, "name": "Outro", "type": "text"}),
        "/api/fields/reorder" => json!({"fields": [f.field]}),
        "/api/posts" if *method == Method::DELETE => json!({"selected": [f.post]}),
        "/api/posts" => json!({"table_id": f.table, "name": "Dois"}),
        "/api/upload" => json!({"prefix": [caller, f.project, f.table], "name": "a.png",
            "content": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="}),
        "/api/project/{id}/render" => json!({"page_id": f.page, "blocks": []}),
        "/api/project/{id}/sections/{kind}" => json!({"block": {"template": "<header></header>"}}),
        "/api/project/{id}/page/{page_id}/sections/{kind}" => json!({"uid": "nenhum"}),
        "/api/business/users/{id}" => {
            json!({"name": "Dono", "email": "owner@example.com", "permissions": {"all_projects": true}})
        }
        "/api/projects/{id}/form-history" => json!({"selected": []}),
        "/api/projects/{id}/settings" => json!({"formHistoryOrderBy": "-created_at"}),
        "/api/projects/{id}/form-email" => json!({"email": ""}),
        "/api/projects/{id}/identity" => json!({"name": "Matriz"}),
        "/api/projects/{id}/theme" => json!({"primary": "#b45309"}),
        "/api/form-email/confirm" | "/api/confirm-email" => json!({"token": "not-a-token"}),
        "/api/tables/{id}/import" => {
            json!({"name": "a.csv", "content": "data:text/csv;base64,bmFtZQp1bQo="})
        }
        _ => json!({}),
    })
}

async fn call(
    app: &TestApp,
    w: &World,
    role: Role,
    method: &Method,
    path: &str,
    body: Option<Value>,
    token: &str,
) -> StatusCode {
    request(app, w, role, method, path, body.as_ref(), token)
        .await
        .status()
}

/// Sends one call as `role` (the client token in its header); `token` is the project's.
pub(crate) async fn request(
    app: &TestApp,
    w: &World,
    role: Role,
    method: &Method,
    path: &str,
    body: Option<&Value>,
    token: &str,
) -> reqwest::Response {
    let client = match role {
        Anonymous | ClientToken => TestApp::client(),
        r => w.session(r).client.clone(),
    };
    let mut req = client.request(method.clone(), app.url(path));
    if role == ClientToken {
        req = req.header("x-client-token", token);
    }
    if let Some(b) = body {
        req = req.json(b);
    }
    req.send().await.unwrap()
}

/// The role's user id (0 for the anonymous and the client token).
pub(crate) fn caller(w: &World, role: Role) -> i64 {
    match role {
        Anonymous | ClientToken => 0,
        r => w.session(r).id(),
    }
}

async fn business_session(
    app: &TestApp,
    email: &str,
    business: BusinessId,
    admin: bool,
    perms: Permissions,
) -> Session {
    let s = app.register(email).await;
    app.store
        .set_user_business(AccountId(s.id()), Some(business), admin, &perms)
        .await
        .unwrap();
    let mut s = s;
    s.user["business_id"] = json!(business);
    s
}

/// One account per role (the anonymous and the client token need none): the owner and the
/// members and administrator of business B, a stranger, another business's administrator and
/// the platform administrator.
pub(crate) async fn world(app: &TestApp) -> World {
    let b = app.store.insert_business("B").await.unwrap();
    let other = app.store.insert_business("Outra").await.unwrap();
    let all = Permissions {
        all_projects: Some(true),
        ..Default::default()
    };
    let mut sessions = BTreeMap::new();
    sessions.insert(
        Owner,
        business_session(app, "owner@example.com", b, false, all.clone()).await,
    );
    sessions.insert(Stranger, app.register("stranger@example.com").await);
    sessions.insert(
        Whitelisted,
        business_session(app, "wl@example.com", b, false, Permissions::default()).await,
    );
    sessions.insert(
        Blacklisted,
        business_session(app, "bl@example.com", b, false, Permissions::default()).await,
    );
    sessions.insert(
        AllProjects,
        business_session(app, "all@example.com", b, false, all).await,
    );
    sessions.insert(
        BusinessAdmin,
        business_session(app, "badmin@example.com", b, true, Permissions::default()).await,
    );
    sessions.insert(
        OtherBusinessAdmin,
        business_session(
            app,
            "other@example.com",
            other,
            true,
            Permissions::default(),
        )
        .await,
    );
    let admin = app.register("admin@example.com").await;
    app.make_admin(&admin).await;
    sessions.insert(Admin, admin);
    World { sessions }
}

dual_test!(
    async fn every_route_answers_every_role_as_the_policy_says(app: TestApp) {
        let w = world(&app).await;

        let doc: Value = reqwest::get(app.url("/api/openapi.json"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let mut routes: Vec<(Method, String)> = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for method in item.as_object().unwrap().keys() {
                routes.push((
                    Method::from_bytes(method.to_uppercase().as_bytes()).unwrap(),
                    path.clone(),
                ));
            }
        }
        assert!(routes.len() > 100, "{} routes", routes.len());
        let mut failures = Vec::new();
        for (method, path) in &routes {
            let rule = access(method, path);
            let publish = path.contains("{deploy_id}");
            // The denied first, on one fixture: they must change nothing.
            let f = fixture(&app, &w, publish).await;
            for role in ROLES {
                if allowed(rule, role) || (rule == Access::Public && role != Anonymous) {
                    continue;
                }
                let status = call(
                    &app,
                    &w,
                    role,
                    method,
                    &fill(path, &f),
                    body(method, path, &f, caller(&w, role)),
                    &f.token,
                )
                .await;
                let expected = denied(rule, role);
                // Bulk record deletion answers with what it deleted: nothing, for the denied.
                let bulk_ok =
                    path == "/api/posts" && *method == Method::DELETE && status == StatusCode::OK;
                if status != expected && !bulk_ok {
                    failures.push(format!(
                        "{method} {path} as {role:?}: {status}, expected {expected}"
                    ));
                }
            }
            let post = json_ok(
                app.get(w.session(Owner), &format!("/api/posts/{}", f.post))
                    .await,
            )
            .await;
            assert_eq!(
                post["id"], f.post,
                "{method} {path}: a denied call changed the fixture"
            );
            for role in ROLES {
                if !allowed(rule, role) || (rule == Access::Public && role != Anonymous) {
                    continue;
                }
                let f = fixture(&app, &w, publish).await;
                let status = call(
                    &app,
                    &w,
                    role,
                    method,
                    &fill(path, &f),
                    body(method, path, &f, caller(&w, role)),
                    &f.token,
                )
                .await;
                let refused = [
                    StatusCode::UNAUTHORIZED,
                    StatusCode::FORBIDDEN,
                    StatusCode::NOT_FOUND,
                ];
                // Card calls answer 503 here (no payment provider configured), and thumbnails
                // where Chromium is not installed.
                let unconfigured = (path.contains("stripe") || path.contains("screenshot"))
                    && status == StatusCode::SERVICE_UNAVAILABLE;
                if (refused.contains(&status) && rule != Access::Public)
                    || (status.is_server_error() && !unconfigured)
                {
                    failures.push(format!(
                        "{method} {path} as {role:?}: {status}, expected to be let through"
                    ));
                }
                if path == "/api/loginWith/{id}" && status.is_success() {
                    // Back to the administrator's own session for the next routes.
                    json_ok(
                        app.post(w.session(Admin), "/api/loginBack", json!({}))
                            .await,
                    )
                    .await;
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} mismatches:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
);
