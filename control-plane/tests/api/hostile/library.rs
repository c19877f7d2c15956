//! The global block library and the templates belong to the platform: business administrators
//! write their own business's library only.
//!
//! Every tenant's editor shows the global library and every new site may start from a template,
//! so a write there by anyone but a platform administrator would reach every tenant. Each
//! attack below is made by a business administrator (and, where it matters, by an ordinary
//! member or a stranger); the platform's library, categories and templates are compared as the
//! store holds them before and after: the attacker changes nothing. A business's own library is
//! shown to its members only; a block of another business, or of another account's My Blocks,
//! answers 404 like one that does not exist.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::ids::{
    AccountId, BlockCategoryId, BusinessBlockId, BusinessId, LibraryBlockId, TemplateId,
};
use vitrine_shared::{
    dual_test,
    store::{BlockContent, MAX_BUSINESS_BLOCKS, Permissions},
};

use crate::helpers::{Session, TestApp, expect_error, json_ok};

const HERO: &str = r#"<section x-vars='[{"name":"title","type":"text","value":"Olá"}]'><h1>{{ title }}</h1></section>"#;
const EVIL: &str = r#"<section><script>steal(document.cookie)</script></section>"#;

/// The platform's things an attacker aims at, and the accounts that try.
struct World {
    admin: Session,
    /// Business A's administrator and a member of A without administration rights.
    a_admin: Session,
    a_member: Session,
    /// Business B's administrator and member.
    b_admin: Session,
    b_member: Session,
    /// An account outside any business.
    stranger: Session,
    category: BlockCategoryId,
    other_category: BlockCategoryId,
    block: LibraryBlockId,
    template: TemplateId,
    /// A project of A's administrator, to name in template saves.
    a_project: i64,
}

/// Registers `email` as a member of `business` (its administrator when `admin`).
pub(super) async fn member(
    app: &TestApp,
    email: &str,
    business: BusinessId,
    admin: bool,
) -> Session {
    let s = app.register(email).await;
    let access = Permissions {
        all_projects: Some(true),
        ..Permissions::default()
    };
    app.store
        .set_user_business(AccountId(s.id()), Some(business), admin, &access)
        .await
        .unwrap();
    s
}

async fn world(app: &TestApp) -> World {
    let admin = app.register("root@example.com").await;
    app.make_admin(&admin).await;
    let a = app.store.insert_business("Agência A").await.unwrap();
    let b = app.store.insert_business("Agência B").await.unwrap();
    let a_admin = member(app, "a-admin@example.com", a, true).await;
    let a_member = member(app, "a-member@example.com", a, false).await;
    let b_admin = member(app, "b-admin@example.com", b, true).await;
    let b_member = member(app, "b-member@example.com", b, false).await;
    let stranger = app.register("stranger@example.com").await;
    let id = |v: Value| v["id"].as_i64().unwrap();
    let category = id(json_ok(
        app.post(&admin, "/erp/category", json!({"name": "Heróis"}))
            .await,
    )
    .await);
    let other_category = id(json_ok(
        app.post(&admin, "/erp/category", json!({"name": "Rodapés"}))
            .await,
    )
    .await);
    let block = id(json_ok(
        app.post(
            &admin,
            "/erp/block",
            json!({"name": "Hero da plataforma", "category_id": category, "template": HERO, "keywords": "topo"}),
        )
        .await,
    )
    .await);
    let site = id(app.create_project(&admin, "Modelo").await);
    let template = id(json_ok(
        app.post(
            &admin,
            "/api/templates",
            json!({"project_id": site, "name": "Tema da plataforma"}),
        )
        .await,
    )
    .await);
    let a_project = id(app.create_project(&a_admin, "Site da A").await);
    World {
        admin,
        a_admin,
        a_member,
        b_admin,
        b_member,
        stranger,
        category: BlockCategoryId(category),
        other_category: BlockCategoryId(other_category),
        block: LibraryBlockId(block),
        template: TemplateId(template),
        a_project,
    }
}

/// Everything of the platform's library and templates, as the store holds it (timestamps
/// included, so any write shows).
async fn platform_state(app: &TestApp, w: &World) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}",
        app.store.block_categories().await.unwrap(),
        app.store.library_blocks().await.unwrap(),
        app.store.list_templates(true).await.unwrap(),
        app.store.template_snapshot(w.template).await.unwrap(),
    )
}

/// Makes each call as `s` and asserts it is refused with `status`.
async fn refused(
    app: &TestApp,
    s: &Session,
    status: StatusCode,
    calls: &[(Method, String, Option<Value>)],
) {
    for (method, path, body) in calls {
        let res = app.call(s, method.clone(), path, body.clone()).await;
        let got = res.status();
        let text = res.text().await.unwrap();
        assert_eq!(
            got, status,
            "{method} {path} as {}: {text}",
            s.user["email"]
        );
        let body: Value = serde_json::from_str(&text).expect("a JSON error");
        assert!(body["error"].is_string(), "{text}");
    }
}

fn post(path: impl Into<String>, body: Value) -> (Method, String, Option<Value>) {
    (Method::POST, path.into(), Some(body))
}

fn get(path: impl Into<String>) -> (Method, String, Option<Value>) {
    (Method::GET, path.into(), None)
}

/// A business administrator, a member and a stranger each make `calls`; all get 403 and the
/// platform's library and templates stay as they were.
async fn nobody_but_the_platform(
    app: &TestApp,
    w: &World,
    calls: &[(Method, String, Option<Value>)],
) {
    let before = platform_state(app, w).await;
    for attacker in [&w.a_admin, &w.a_member, &w.stranger] {
        refused(app, attacker, StatusCode::FORBIDDEN, calls).await;
    }
    assert_eq!(
        platform_state(app, w).await,
        before,
        "the attack changed the platform's library"
    );
}

dual_test!(
    async fn a_business_admin_cannot_create_a_global_block(app: TestApp) {
        let w = world(&app).await;
        nobody_but_the_platform(
            &app,
            &w,
            &[
                post("/api/newBlock", json!({"name": "Bloco invasor", "category_id": w.category, "template": EVIL})),
                post("/erp/block", json!({"name": "Bloco invasor", "category_id": w.category, "template": EVIL})),
                post(
                    "/erp/import-blocks",
                    json!({"blocks": [{"name": "Bloco invasor", "category": "Heróis", "template": EVIL}]}),
                ),
            ],
        )
        .await;
        let lib = json_ok(app.get(&w.b_member, "/api/blocks").await).await;
        assert!(!lib.to_string().contains("invasor"), "{lib}");
    }
);

dual_test!(
    async fn a_business_admin_cannot_overwrite_a_global_block(app: TestApp) {
        let w = world(&app).await;
        let b = w.block;
        nobody_but_the_platform(
            &app,
            &w,
            &[
                post("/api/newBlock", json!({"id": b, "name": "Hero da plataforma", "category_id": w.category, "template": EVIL})),
                post(format!("/erp/block/{b}"), json!({"name": "Hero da plataforma", "template": EVIL})),
                post(
                    "/erp/import-blocks",
                    json!({"blocks": [{"name": "hero da plataforma", "template": EVIL}]}),
                ),
                // A thumbnail is a write of the block's image too.
                get(format!("/api/block-screenshot/{b}")),
            ],
        )
        .await;
        let block = app.store.library_block(b).await.unwrap();
        assert_eq!(block.content.template, HERO);
    }
);

dual_test!(
    async fn a_business_admin_cannot_move_a_global_block_to_another_category(app: TestApp) {
        let w = world(&app).await;
        let b = w.block;
        nobody_but_the_platform(
            &app,
            &w,
            &[
                post(
                    "/api/newBlock",
                    json!({"id": b, "category_id": w.other_category}),
                ),
                post(
                    format!("/erp/block/{b}"),
                    json!({"category_id": w.other_category}),
                ),
                post(format!("/erp/reorder-block/{b}"), json!({"order": 0})),
            ],
        )
        .await;
        let block = app.store.library_block(b).await.unwrap();
        assert_eq!(block.category_id, Some(w.category));
    }
);

dual_test!(
    async fn a_business_admin_cannot_delete_a_global_block_or_category(app: TestApp) {
        let w = world(&app).await;
        nobody_but_the_platform(
            &app,
            &w,
            &[
                post(format!("/erp/delete-block/{}", w.block), json!({})),
                post(
                    format!("/erp/delete-category/{}", w.other_category),
                    json!({}),
                ),
                post("/erp/truncate", json!({})),
            ],
        )
        .await;
        assert!(app.store.library_block(w.block).await.is_ok());
    }
);

dual_test!(
    async fn a_business_admin_cannot_write_the_global_categories(app: TestApp) {
        let w = world(&app).await;
        let c = w.category;
        nobody_but_the_platform(
            &app,
            &w,
            &[
                post("/erp/category", json!({"name": "Categoria invasora"})),
                post(
                    format!("/erp/category/{c}"),
                    json!({"name": "Renomeada", "icon": "<svg onload=x>"}),
                ),
                post(format!("/erp/reorder-category/{c}"), json!({"order": 0})),
                post(
                    "/erp/import-categories",
                    json!({"categories": [{"name": "Heróis", "icon": "<svg/>", "order": 0}]}),
                ),
            ],
        )
        .await;
    }
);

dual_test!(
    async fn a_business_admin_cannot_write_a_template(app: TestApp) {
        let w = world(&app).await;
        let t = w.template;
        let p = w.a_project;
        nobody_but_the_platform(
            &app,
            &w,
            &[
                // Replace the template with the attacker's own site, or publish a new one.
                post(
                    "/api/templates",
                    json!({"project_id": p, "template_id": t, "name": "Tema da plataforma"}),
                ),
                post(
                    "/api/templates",
                    json!({"project_id": p, "name": "Tema invasor"}),
                ),
                post(
                    format!("/erp/template/{t}"),
                    json!({"name": "Renomeado", "is_published": "0"}),
                ),
                post(format!("/erp/reorder-template/{t}"), json!({"order": 0})),
                post(format!("/erp/delete-template/{t}"), json!({})),
                get(format!("/api/template-screenshot/{t}")),
            ],
        )
        .await;
        let list = json_ok(app.get(&w.b_member, "/api/templates").await).await;
        let names: Vec<&str> = list
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert_eq!(names, ["Tema da plataforma"]);
    }
);

dual_test!(
    async fn an_owner_cannot_replace_or_delete_another_accounts_my_block_by_id(app: TestApp) {
        let w = world(&app).await;
        let mine = json_ok(
            app.post(
                &w.a_member,
                "/api/newMyBlock",
                json!({"name": "Meu hero", "template": HERO}),
            )
            .await,
        )
        .await;
        let id = mine["id"].as_i64().unwrap();
        // Strangers, members of another business, and even the victim's own business
        // administrator: My Blocks are the account's own.
        for attacker in [&w.stranger, &w.b_admin, &w.a_admin] {
            expect_error(
                app.post(
                    attacker,
                    "/api/newMyBlock",
                    json!({"id": id, "name": "Roubado", "template": EVIL}),
                )
                .await,
                StatusCode::NOT_FOUND,
            )
            .await;
            expect_error(
                app.delete(attacker, &format!("/api/block/{id}")).await,
                StatusCode::NOT_FOUND,
            )
            .await;
            let theirs = json_ok(app.get(attacker, "/api/blocks").await).await;
            assert!(!theirs.to_string().contains("Meu hero"), "{theirs}");
        }
        assert_eq!(
            app.store
                .my_blocks(AccountId(w.a_member.id()))
                .await
                .unwrap(),
            vec![serde_json::from_value(mine).unwrap()]
        );
    }
);

/// Creates a block in the caller's business's library.
async fn business_block(app: &TestApp, s: &Session, name: &str) -> Value {
    let res = app
        .post(
            s,
            "/api/business/blocks",
            json!({"name": name, "template": HERO, "keywords": "topo, capa"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    res.json().await.unwrap()
}

/// The business `s` belongs to.
async fn business_of(app: &TestApp, s: &Session) -> i64 {
    app.store
        .user_by_id(AccountId(s.id()))
        .await
        .unwrap()
        .business_id
        .unwrap()
        .get()
}

/// The names in `s`'s editor library under `business_blocks`.
async fn business_names(app: &TestApp, s: &Session) -> Vec<String> {
    let lib = json_ok(app.get(s, "/api/blocks").await).await;
    lib["business_blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect()
}

dual_test!(
    async fn a_business_admin_cannot_write_another_business_library(app: TestApp) {
        let w = world(&app).await;
        let theirs = business_block(&app, &w.b_admin, "Hero da B").await;
        let id = theirs["id"].as_i64().unwrap();
        let b = business_of(&app, &w.b_admin).await;
        let before = app
            .store
            .business_block(BusinessId(b), BusinessBlockId(id))
            .await
            .unwrap();
        for attacker in [&w.a_admin, &w.a_member, &w.stranger, &w.admin] {
            refused(
                &app,
                attacker,
                StatusCode::NOT_FOUND,
                &[
                    post(
                        format!("/api/business/blocks/{id}"),
                        json!({"name": "Roubado", "template": EVIL}),
                    ),
                    post(format!("/api/business/blocks/{id}"), json!({})),
                    (Method::DELETE, format!("/api/business/blocks/{id}"), None),
                ],
            )
            .await;
        }
        assert_eq!(
            app.store
                .business_block(BusinessId(b), BusinessBlockId(id))
                .await
                .unwrap(),
            before
        );
        // Creating writes to the attacker's own library, never to B's.
        business_block(&app, &w.a_admin, "Hero da A").await;
        assert_eq!(business_names(&app, &w.b_member).await, ["Hero da B"]);
    }
);

dual_test!(
    async fn a_member_of_one_business_cannot_see_another_business_library(app: TestApp) {
        let w = world(&app).await;
        business_block(&app, &w.b_admin, "Segredo da B").await;
        business_block(&app, &w.a_admin, "Hero da A").await;
        for (s, expected) in [
            (&w.a_member, vec!["Hero da A"]),
            (&w.a_admin, vec!["Hero da A"]),
        ] {
            assert_eq!(business_names(&app, s).await, expected);
            let list = json_ok(app.get(s, "/api/business/blocks").await).await;
            assert!(!list.to_string().contains("Segredo"), "{list}");
        }
        // Outside any business (platform administrators included) there is no business library.
        for s in [&w.stranger, &w.admin] {
            assert!(business_names(&app, s).await.is_empty());
            refused(
                &app,
                s,
                StatusCode::NOT_FOUND,
                &[get("/api/business/blocks")],
            )
            .await;
            refused(
                &app,
                s,
                StatusCode::NOT_FOUND,
                &[post(
                    "/api/business/blocks",
                    json!({"name": "Sem empresa", "template": HERO}),
                )],
            )
            .await;
        }
    }
);

dual_test!(
    async fn a_business_admins_own_library_works_and_its_members_see_it(app: TestApp) {
        let w = world(&app).await;
        let made = business_block(&app, &w.a_admin, "Hero da A").await;
        let id = made["id"].as_i64().unwrap();
        assert_eq!(made["order"], 99);
        assert_eq!(made["keywords"], "topo, capa");
        assert_eq!(business_names(&app, &w.a_member).await, ["Hero da A"]);
        let listed = json_ok(app.get(&w.a_member, "/api/business/blocks").await).await;
        assert_eq!(listed[0]["template"], HERO);

        // Replacing keeps what the body leaves out.
        let renamed = json_ok(
            app.post(
                &w.a_admin,
                &format!("/api/business/blocks/{id}"),
                json!({"name": "Capa da A", "order": 3}),
            )
            .await,
        )
        .await;
        assert_eq!(
            (
                renamed["name"].as_str(),
                renamed["template"].as_str(),
                renamed["order"].as_i64()
            ),
            (Some("Capa da A"), Some(HERO), Some(3))
        );

        // Checked like every block; names are unique within the business, ignoring case.
        for (body, status) in [
            (
                json!({"name": "Quebrado", "template": "{% if %}"}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"name": " ", "template": HERO}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"name": "Sem html"}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"name": "Imagem", "template": HERO, "image": "javascript:alert(1)"}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"name": "capa da a ", "template": HERO}),
                StatusCode::CONFLICT,
            ),
        ] {
            expect_error(
                app.post(&w.a_admin, "/api/business/blocks", body).await,
                status,
            )
            .await;
        }
        // Another business may use the same name in its own library.
        business_block(&app, &w.b_admin, "Capa da A").await;

        // Members read it; only the business's administrators write it.
        let a = business_of(&app, &w.a_admin).await;
        let before = app
            .store
            .business_block(BusinessId(a), BusinessBlockId(id))
            .await
            .unwrap();
        refused(
            &app,
            &w.a_member,
            StatusCode::FORBIDDEN,
            &[
                post(
                    "/api/business/blocks",
                    json!({"name": "Do membro", "template": HERO}),
                ),
                post(
                    format!("/api/business/blocks/{id}"),
                    json!({"template": EVIL}),
                ),
                (Method::DELETE, format!("/api/business/blocks/{id}"), None),
            ],
        )
        .await;
        assert_eq!(
            app.store
                .business_block(BusinessId(a), BusinessBlockId(id))
                .await
                .unwrap(),
            before
        );

        let res = app
            .delete(&w.a_admin, &format!("/api/business/blocks/{id}"))
            .await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        assert!(business_names(&app, &w.a_member).await.is_empty());
        expect_error(
            app.delete(&w.a_admin, &format!("/api/business/blocks/{id}"))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn a_business_library_is_capped(app: TestApp) {
        let w = world(&app).await;
        let a = business_of(&app, &w.a_admin).await;
        for i in 0..MAX_BUSINESS_BLOCKS {
            let input = BlockContent {
                name: format!("Bloco {i}"),
                template: HERO.into(),
                ..BlockContent::default()
            };
            app.store
                .insert_business_block(BusinessId(a), &input, 99)
                .await
                .unwrap();
        }
        let msg = expect_error(
            app.post(
                &w.a_admin,
                "/api/business/blocks",
                json!({"name": "Um a mais", "template": HERO}),
            )
            .await,
            StatusCode::CONFLICT,
        )
        .await;
        assert!(msg.contains("full"), "{msg}");
        assert_eq!(
            app.store
                .business_blocks(BusinessId(a))
                .await
                .unwrap()
                .len() as i64,
            MAX_BUSINESS_BLOCKS
        );
        // The cap is per business.
        business_block(&app, &w.b_admin, "Um a mais").await;
    }
);
