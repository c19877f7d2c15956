//! Fair shares of storage (issue 40, docs/security.md "Storage"): one account (a business
//! counts as one) cannot fill the object store, keep the upload path busy or fill the
//! database with records for the others. Each test uses small quotas so the attack is quick,
//! and checks what was stored, not only the answer.

use base64::Engine;
use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::ids::{AccountId, ProjectId};
use vitrine_shared::{dual_test, testing::Backend};

use super::library::member;
use crate::helpers::{Session, TestApp, expect_error, json_ok};

/// A text file of its own (its key differs from every other tag's), `padding` bytes longer.
/// Text, not an image: an image is a photo, stored as made (variants and all), not as sent.
fn png(tag: &str, padding: usize) -> Vec<u8> {
    [tag.as_bytes(), &vec![b'.'; padding]].concat()
}

/// `POST /api/upload` of `bytes` as `{tag}.txt` into `prefix`.
async fn send(
    app: &TestApp,
    s: &Session,
    prefix: Value,
    tag: &str,
    bytes: &[u8],
) -> reqwest::Response {
    let content = format!(
        "data:text/plain;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    );
    app.post(
        s,
        "/api/upload",
        json!({"name": format!("{tag}.txt"), "content": content, "prefix": prefix}),
    )
    .await
}

/// Uploads `png(tag, 0)` into the caller's own folder, or panics; answers its URL.
async fn upload(app: &TestApp, s: &Session, prefix: Value, tag: &str) -> String {
    let res = send(app, s, prefix, tag, &png(tag, 0)).await;
    assert_eq!(res.status(), StatusCode::CREATED, "{tag}");
    res.text().await.unwrap()
}

/// The code of an error answer, after checking its status.
async fn code(res: reqwest::Response, status: StatusCode) -> String {
    let got = res.status();
    let body: Value = res.json().await.unwrap();
    assert_eq!(got, status, "{body}");
    body["error"].as_str().unwrap().to_string()
}

/// Every stored upload's key.
async fn stored(app: &TestApp) -> Vec<String> {
    let mut keys: Vec<String> = app
        .app
        .state()
        .blobs
        .list("uploads/")
        .await
        .unwrap()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    keys.sort();
    keys
}

/// `GET /api/user/storage`.
async fn usage(app: &TestApp, s: &Session) -> Value {
    json_ok(app.get(s, "/api/user/storage").await).await
}

/// A control plane with room for 1,000 bytes and 3 files per account.
struct SmallQuota(TestApp);

impl SmallQuota {
    async fn new(backend: Backend) -> SmallQuota {
        SmallQuota(
            TestApp::with(backend, |s| {
                s.storage_quota_bytes = 1_000;
                s.storage_quota_objects = 3;
            })
            .await,
        )
    }
}

dual_test! {
    async fn an_account_past_its_byte_or_file_quota_gets_a_coded_409_and_nothing_is_stored(app: SmallQuota) {
        let app = app.0;
        let ana = app.register("ana-quota@example.com").await;
        let big = png("grande", 500);
        let res = send(&app, &ana, json!([]), "grande", &big).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let before = stored(&app).await;

        // 2 × 506 bytes > 1,000: refused before the write.
        let res = send(&app, &ana, json!([]), "outra", &png("outra", 500)).await;
        assert_eq!(code(res, StatusCode::CONFLICT).await, "storage_quota_bytes");
        assert_eq!(stored(&app).await, before);
        let u = usage(&app, &ana).await;
        assert_eq!((u["bytes"].as_u64(), u["files"].as_i64()), (Some(big.len() as u64), Some(1)));
        assert_eq!(u["max_bytes"], 1_000);

        // Small files fit the bytes, not the count: the fourth is refused.
        let project = app.create_project(&ana, "Loja").await["id"].as_i64().unwrap();
        upload(&app, &ana, json!([ana.id(), project]), "a").await;
        upload(&app, &ana, json!([]), "b").await;
        let before = stored(&app).await;
        let res = send(&app, &ana, json!([ana.id(), project]), "c", &png("c", 0)).await;
        assert_eq!(code(res, StatusCode::CONFLICT).await, "storage_quota_objects");
        assert_eq!(stored(&app).await, before);
        // The same file again is stored already: no charge, no refusal.
        let res = send(&app, &ana, json!([]), "grande", &big).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let u = usage(&app, &ana).await;
        assert_eq!(u["files"], 3);

        // A client-panel token uploads into the project's folder: the owner's share, refused too.
        let token = app.store.project_by_id(ProjectId(project)).await.unwrap().token;
        let res = reqwest::Client::new()
            .post(app.url("/api/upload"))
            .header("x-client-token", token)
            .json(&json!({"name": "d.txt", "content": format!("data:text/plain;base64,{}", base64::engine::general_purpose::STANDARD.encode(png("d", 0)))}))
            .send()
            .await
            .unwrap();
        assert_eq!(code(res, StatusCode::CONFLICT).await, "storage_quota_objects");

        // A business is one account: what one member keeps counts for the other.
        let business = app.store.insert_business("Agência").await.unwrap();
        let first = member(&app, "m1-quota@example.com", business, false).await;
        let second = member(&app, "m2-quota@example.com", business, false).await;
        for tag in ["m1", "m2", "m3"] {
            upload(&app, &first, json!([]), tag).await;
        }
        let res = send(&app, &second, json!([]), "m4", &png("m4", 0)).await;
        assert_eq!(code(res, StatusCode::CONFLICT).await, "storage_quota_objects");
        assert_eq!(usage(&app, &second).await["files"], 3);
        assert_eq!(usage(&app, &second).await["business"], true);

        // Another account is untouched by either.
        let bia = app.register("bia-quota@example.com").await;
        upload(&app, &bia, json!([]), "livre").await;
        assert_eq!(usage(&app, &bia).await["files"], 1);
    }
}

/// A control plane with room for 5 files per account and no rate that the test reaches.
struct FiveFiles(TestApp);

impl FiveFiles {
    async fn new(backend: Backend) -> FiveFiles {
        FiveFiles(
            TestApp::with(backend, |s| {
                s.storage_quota_objects = 5;
                s.uploads_per_minute = 1_000;
            })
            .await,
        )
    }
}

dual_test! {
    async fn concurrent_uploads_cannot_slip_past_the_quota_and_another_account_still_uploads(app: FiveFiles) {
        let app = std::sync::Arc::new(app.0);
        let ana = std::sync::Arc::new(app.register("ana-race@example.com").await);
        let bia = app.register("bia-race@example.com").await;
        let mut flood = tokio::task::JoinSet::new();
        for i in 0..24 {
            let (app, ana) = (app.clone(), ana.clone());
            flood.spawn(async move {
                let tag = format!("f{i}");
                send(&app, &ana, json!([]), &tag, &png(&tag, 0)).await.status()
            });
        }
        // Meanwhile another account uploads as usual.
        upload(&app, &bia, json!([]), "calma").await;
        let mut created = 0;
        let mut refused = 0;
        while let Some(status) = flood.join_next().await {
            match status.unwrap() {
                StatusCode::CREATED => created += 1,
                StatusCode::CONFLICT => refused += 1,
                other => panic!("unexpected {other}"),
            }
        }
        assert_eq!((created, refused), (5, 19));
        let prefix = format!("uploads/{}/", ana.id());
        let kept = stored(&app).await.into_iter().filter(|k| k.starts_with(&prefix)).count();
        assert_eq!(kept, 5);
        assert_eq!(usage(&app, &ana).await["files"], 5);
        assert_eq!(usage(&app, &bia).await["files"], 1);
    }
}

/// A control plane that takes 3 uploads a minute per account.
struct SlowUploads(TestApp);

impl SlowUploads {
    async fn new(backend: Backend) -> SlowUploads {
        SlowUploads(TestApp::with(backend, |s| s.uploads_per_minute = 3).await)
    }
}

dual_test! {
    async fn uploads_past_the_rate_get_429_with_retry_after_and_nothing_is_stored(app: SlowUploads) {
        let app = app.0;
        let ana = app.register("ana-rate@example.com").await;
        for tag in ["r1", "r2", "r3"] {
            upload(&app, &ana, json!([]), tag).await;
        }
        let before = stored(&app).await;
        let res = send(&app, &ana, json!([]), "r4", &png("r4", 0)).await;
        let retry: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=60).contains(&retry), "{retry}");
        assert_eq!(code(res, StatusCode::TOO_MANY_REQUESTS).await, "upload_rate_limited");
        assert_eq!(stored(&app).await, before);
        assert_eq!(usage(&app, &ana).await["files"], 3);
        // Another account has its own allowance.
        let bia = app.register("bia-rate@example.com").await;
        upload(&app, &bia, json!([]), "r1").await;
    }
}

/// A control plane where an account keeps 5 records.
struct FewRecords(TestApp);

impl FewRecords {
    async fn new(backend: Backend) -> FewRecords {
        FewRecords(TestApp::with(backend, |s| s.records_per_account = 5).await)
    }
}

/// `POST /api/tables/{table}/import` of `csv`.
async fn import(app: &TestApp, s: &Session, table: i64, csv: &str) -> reqwest::Response {
    let content = format!(
        "data:text/csv;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(csv)
    );
    app.post(
        s,
        &format!("/api/tables/{table}/import"),
        json!({"name": "linhas.csv", "content": content}),
    )
    .await
}

async fn total(app: &TestApp, s: &Session, table: i64) -> i64 {
    json_ok(app.get(s, &format!("/api/data/{table}?limit=1")).await).await["total"]
        .as_i64()
        .unwrap()
}

dual_test! {
    async fn the_records_cap_refuses_an_insert_an_import_and_a_copy_whole(app: FewRecords) {
        let app = app.0;
        let ana = app.register("ana-records@example.com").await;
        let project = app.create_project(&ana, "Catálogo").await["id"].as_i64().unwrap();
        let table = json_ok(app.post(&ana, "/api/tables", json!({"project_id": project, "name": "Itens", "meta": {"plural": "Itens", "singular": "Item"}})).await).await["id"].as_i64().unwrap();
        assert_eq!(json_ok(import(&app, &ana, table, "name\nUm\nDois\nTrês\n").await).await["inserted"], json!(3));

        // 3 + 3 > 5: the import is refused whole.
        let res = import(&app, &ana, table, "name\nQuatro\nCinco\nSeis\n").await;
        assert_eq!(code(res, StatusCode::CONFLICT).await, "too_many_records");
        assert_eq!(total(&app, &ana, table).await, 3);

        let post = |name: &str| json!({"table_id": table, "name": name, "slug": "", "fields": []});
        for name in ["Quatro", "Cinco"] {
            json_ok(app.post(&ana, "/api/posts", post(name)).await).await;
        }
        let res = app.post(&ana, "/api/posts", post("Seis")).await;
        assert_eq!(code(res, StatusCode::CONFLICT).await, "too_many_records");
        assert_eq!(total(&app, &ana, table).await, 5);
        assert_eq!(usage(&app, &ana).await["records"], 5);

        // A copy of the project would hold 5 more: refused, and no project is made.
        let projects = app.store.projects_candidates(AccountId(ana.id()), None).await.unwrap().len();
        let res = app.post(&ana, &format!("/api/projects/{project}/duplicate"), json!({})).await;
        expect_error(res, StatusCode::CONFLICT).await;
        assert_eq!(app.store.projects_candidates(AccountId(ana.id()), None).await.unwrap().len(), projects);

        // Another account keeps its own records.
        let bia = app.register("bia-records@example.com").await;
        let other = app.create_project(&bia, "Outro").await["id"].as_i64().unwrap();
        let theirs = json_ok(app.post(&bia, "/api/tables", json!({"project_id": other, "name": "Coisas", "meta": {"plural": "Coisas", "singular": "Coisa"}})).await).await["id"].as_i64().unwrap();
        assert_eq!(json_ok(import(&app, &bia, theirs, "name\nA\nB\n").await).await["inserted"], json!(2));
    }
}

/// A new project of `s` with a collection "Itens"; answers the collection.
async fn items(app: &TestApp, s: &Session, project: &str) -> i64 {
    let project = app.create_project(s, project).await["id"].as_i64().unwrap();
    let body = json!({"project_id": project, "name": "Itens", "meta": {"plural": "Itens", "singular": "Item"}});
    json_ok(app.post(s, "/api/tables", body).await).await["id"]
        .as_i64()
        .unwrap()
}

dual_test! {
    async fn an_account_runs_two_imports_at_once_and_a_third_waits_while_another_account_imports(app: TestApp) {
        // The attack: one account fires imports at once, each holding a blocking thread, its
        // file in memory and a database connection that every account shares.
        let ana = app.register("ana-imports@example.com").await;
        let bia = app.register("bia-imports@example.com").await;
        let mine = [items(&app, &ana, "Um").await, items(&app, &ana, "Dois").await, items(&app, &ana, "Três").await];
        let theirs = items(&app, &bia, "Outro").await;
        // Big enough that the three requests meet while the first two still run.
        let file: String = std::iter::once("name\n".to_string())
            .chain((1..=40_000).map(|i| format!("Item {i}\n")))
            .collect();
        let (a, b, c, other) = tokio::join!(
            import(&app, &ana, mine[0], &file),
            import(&app, &ana, mine[1], &file),
            import(&app, &ana, mine[2], &file),
            import(&app, &bia, theirs, &file),
        );
        let mut statuses = Vec::new();
        let mut refused = Vec::new();
        for (res, table) in [(a, mine[0]), (b, mine[1]), (c, mine[2])] {
            statuses.push(res.status().as_u16());
            if res.status() == StatusCode::TOO_MANY_REQUESTS {
                assert!(res.headers().get("retry-after").is_some(), "Retry-After");
                let body: Value = res.json().await.unwrap();
                assert_eq!(body["error"], "imports_running", "{body}");
                assert_eq!(body["params"]["count"], 2, "{body}");
                refused.push(table);
            }
        }
        statuses.sort();
        assert_eq!(statuses, [200, 200, 429]);
        // The refused import wrote nothing; the others and the other account's went in whole.
        assert_eq!(total(&app, &ana, refused[0]).await, 0);
        for table in mine.iter().filter(|t| **t != refused[0]) {
            assert_eq!(total(&app, &ana, *table).await, 40_000);
        }
        assert_eq!(other.status(), StatusCode::OK);
        assert_eq!(total(&app, &bia, theirs).await, 40_000);
        // Once they have finished, the account's places are back.
        let again = json_ok(import(&app, &ana, refused[0], "name\nUm\n").await).await;
        assert_eq!(again["inserted"], json!(1));
    }
}

/// The object key of a `/files/…` URL.
fn key(url: &str) -> String {
    url.strip_prefix("/files/").unwrap().to_string()
}

dual_test! {
    async fn the_collector_deletes_only_unreferenced_uploads_past_their_grace(app: TestApp) {
        let ana = app.register("ana-collector@example.com").await;
        let project = app.create_project(&ana, "Padaria").await;
        let pid = project["id"].as_i64().unwrap();
        let home = project["pages"][0]["id"].as_i64().unwrap();
        let own = json!([ana.id(), pid]);
        let on_page = upload(&app, &ana, own.clone(), "pagina").await;
        let in_record = upload(&app, &ana, own.clone(), "registro").await;
        let in_section = upload(&app, &ana, own.clone(), "secao").await;
        // In no project's folder, named by the page when it is published, then not any more:
        // only the live deploy names it.
        let live_only = upload(&app, &ana, json!(["admin"]), "publicado").await;
        let orphan = upload(&app, &ana, own.clone(), "sobra").await;
        let fresh = upload(&app, &ana, own.clone(), "nova").await;

        let image_block = |uid: &str, urls: &[&String]| {
            let vars: Vec<Value> = urls
                .iter()
                .enumerate()
                .map(|(i, u)| json!({"name": format!("img{i}"), "type": "text", "value": u}))
                .collect();
            let template: String = (0..urls.len()).map(|i| format!("<img src=\"{{{{ img{i} }}}}\">")).collect();
            json!({"uid": uid, "template": template, "vars": vars})
        };
        json_ok(app.post(&ana, &format!("/api/page/{home}"), json!({"blocks": [image_block("capa", &[&on_page, &live_only])]})).await).await;
        json_ok(app.post(&ana, &format!("/api/project/{pid}/sections/header"), json!({"block": image_block("topo", &[&in_section])})).await).await;
        let table = json_ok(app.post(&ana, "/api/tables", json!({"project_id": pid, "name": "Produtos", "meta": {"plural": "Produtos", "singular": "Produto"}})).await).await["id"].as_i64().unwrap();
        let field = json_ok(app.post(&ana, "/api/fields", json!({"table_id": table, "name": "Foto", "type": "image"})).await).await["id"].clone();
        json_ok(app.post(&ana, "/api/posts", json!({"table_id": table, "name": "Pão", "slug": "", "fields": [{"field_id": field, "value": in_record}]})).await).await;
        let manifest = crate::hostile::files::publish(&app, &ana, pid).await;
        assert!(manifest.uploads.contains(&key(&live_only)));
        json_ok(app.post(&ana, &format!("/api/page/{home}"), json!({"blocks": [image_block("capa", &[&on_page])]})).await).await;

        // Nothing in the database names it now: only the live deploy's manifest does.
        assert!(!app.store.upload_is_named(&key(&live_only)).await.unwrap());
        assert!(app.store.upload_is_named(&key(&in_section)).await.unwrap());

        // Every upload but the fresh one was last seen two days ago.
        let long_ago = chrono::Utc::now() - chrono::Duration::days(2);
        for url in [&on_page, &in_record, &in_section, &live_only, &orphan] {
            app.store.renew_upload(&key(url), long_ago).await.unwrap();
        }
        let before = usage(&app, &ana).await;
        let state = app.app.state();
        assert_eq!(vitrine_control::collector::collect(state).await.unwrap(), 1);

        let left = stored(&app).await;
        assert!(!left.contains(&key(&orphan)));
        for url in [&on_page, &in_record, &in_section, &live_only, &fresh] {
            assert!(left.contains(&key(url)), "{url} kept");
        }
        let after = usage(&app, &ana).await;
        assert_eq!(after["files"].as_i64().unwrap(), before["files"].as_i64().unwrap() - 1);
        assert_eq!(
            after["bytes"].as_i64().unwrap(),
            before["bytes"].as_i64().unwrap() - png("sobra", 0).len() as i64
        );
        let res = reqwest::get(app.url(&orphan)).await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        // The ones in use start their grace again: a second round finds nothing to do.
        assert_eq!(vitrine_control::collector::collect(state).await.unwrap(), 0);
    }
}
