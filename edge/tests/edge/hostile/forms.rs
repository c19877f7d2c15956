//! One site's bad form input never stops another site's forms: control characters, poisoned
//! spool lines, caps and rate limits.

use std::{
    net::IpAddr,
    path::Path,
    sync::Arc,
    time::{Duration, Instant},
};

use bytes::Bytes;
use serde_json::Value;
use vitrine_edge::{
    metrics::Metrics,
    submissions::{
        DEAD_LETTER_FILE, FormLimits, Forms, Incoming, Outcome, Refused, SPOOL_FILE, Spooled,
    },
};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    Store, dual_test,
    manifest::FormSettings,
    store::{NewSubmission, now},
    testing::{TestDb, fixtures},
};

use crate::support::{TestEdge, basic};

/// Posts `body` (url-encoded) to `/_forms` on `host`, asking for JSON, as `visitor` when the
/// edge trusts the test client as a proxy. Returns the status and the JSON answer.
async fn post(
    t: &TestEdge,
    host: &str,
    visitor: Option<&str>,
    body: &'static [u8],
) -> (u16, Value) {
    let mut r = t
        .client
        .post(t.url("/_forms"))
        .header("host", host)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json");
    if let Some(ip) = visitor {
        r = r.header("x-forwarded-for", ip);
    }
    let r = r.body(body).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// Polls (up to `within`) until `check` holds; panics with `what` otherwise.
async fn within<F, Fut>(within: Duration, what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while !check().await {
        assert!(start.elapsed() < within, "{what}: not within {within:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn history(store: &Store, project: i64) -> Vec<vitrine_shared::store::Submission> {
    store
        .list_submissions(ProjectId(project), false, 1000, 0)
        .await
        .unwrap()
        .0
}

dual_test! {
    async fn a_nul_bearing_submission_on_one_site_never_stops_another_sites_forms(db: TestDb) {
        let t = TestEdge::start(db).await;
        let a = t.simple_site("loja-a", "<h1>A</h1>").await;
        let b = t.simple_site("loja-b", "<h1>B</h1>").await;

        // NUL and other control characters, percent-encoded and raw, in names and values.
        let (status, _) = post(
            &t,
            "loja-a.localhost",
            None,
            b"no%00me=Ana%00Lima%1b%5B2J&msg=linha+1%0D%0Alinha+2%09fim&raw\0=x\0y",
        )
        .await;
        assert_eq!(status, 200, "the cleaned submission is taken");
        let r = t
            .client
            .post(t.url("/_forms"))
            .header("host", "loja-a.localhost")
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .body(r#"{"nome\u0000":"Bia\u0000\u0007","_subject":"Oi\u0000\nquebra"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);

        // Then an ordinary one on site B: in its history and its outbox within a second.
        let (status, _) = post(&t, "loja-b.localhost", None, b"nome=Caio&msg=Ola").await;
        assert_eq!(status, 200);
        let store = &t.db.store;
        within(Duration::from_secs(1), "B's submission in its history and outbox", || async {
            history(store, b).await.len() == 1
                && store.mail_to("dona@example.com").await.unwrap().len() == 3
        })
        .await;
        assert!(history(store, b).await[0].data.contains("<dd>Caio</dd>"));

        // A's went in too, without a control character left.
        let rows = history(store, a).await;
        assert_eq!(rows.len(), 2);
        for row in &rows {
            let stray = |c: char| c.is_control() && c != '\n' && c != '\t';
            assert!(!row.data.chars().any(stray), "{:?}", row.data);
            assert!(!row.subject.chars().any(char::is_control), "{:?}", row.subject);
        }
        assert!(rows[0].data.contains("<dt>nome</dt><dd>AnaLima[2J</dd>"), "{}", rows[0].data);
        assert!(rows[0].data.contains("linha 1<br>linha 2\tfim"), "{}", rows[0].data);
        assert!(rows[0].data.contains("<dt>raw</dt><dd>xy</dd>"), "{}", rows[0].data);
        assert_eq!(rows[1].subject, "Oi quebra");
        // Nothing went to the spool, and the edge never thought the database was down.
        assert_eq!(t.edge.forms.spooled().await, 0);
        assert_eq!(t.metric("vitrine_edge_spooled_submissions_total").await, 0);
        assert_eq!(t.metric("vitrine_edge_db_failures_total{reason=\"outage\"}").await, 0);
        t.edge.stop().await;
    }
}

/// A user and a project for tests that drive [`Forms`] without an edge.
async fn owner_and_project(store: &Store, slug: &str) -> i64 {
    let user = fixtures::user(store, "Antes", &format!("{slug}@example.com")).await;
    (fixtures::project(store, user, slug).await).get()
}

fn incoming<'a>(project_id: i64, settings: &'a FormSettings, body: &'static str) -> Incoming<'a> {
    Incoming {
        project_id: ProjectId(project_id),
        settings,
        page_url: "/contato".into(),
        content_type: None,
        body: Bytes::from_static(body.as_bytes()),
        client: IpAddr::from([203, 0, 113, 9]),
        host: "loja.example",
        user_agent: None,
    }
}

dual_test! {
    async fn a_submission_the_database_refuses_is_dead_lettered_and_never_switches_the_edge_to_the_spool(db: TestDb) {
        let good = owner_and_project(&db.store, "boa").await;
        let spool = tempfile::tempdir().unwrap();
        let metrics = Arc::new(Metrics::default());
        let forms = Forms::new(db.store.clone(), spool.path(), FormLimits::default(), metrics.clone())
            .unwrap();
        let settings = FormSettings {
            to: "boa@example.com".into(),
            subject: "Contato".into(),
            ..FormSettings::default()
        };
        // A project that is gone by the time its visitor's form arrives: the database
        // refuses the row (foreign key), which is not an outage.
        let refused = forms.submit(incoming(good + 1000, &settings, "nome=Ana")).await;
        assert_eq!(refused, Err(Refused::Rejected));
        // The very next submission, on another site, goes to the database as usual.
        for _ in 0..3 {
            assert_eq!(forms.submit(incoming(good, &settings, "nome=Bia")).await, Ok(Outcome::Stored));
        }
        assert_eq!(forms.spooled().await, 0);
        assert_eq!(history(&db.store, good).await.len(), 3);
        let dead = std::fs::read_to_string(spool.path().join(DEAD_LETTER_FILE)).unwrap();
        assert_eq!(dead.lines().count(), 1, "kept for an operator: {dead}");
        let entry: Value = serde_json::from_str(dead.lines().next().unwrap()).unwrap();
        assert!(entry["line"].as_str().unwrap().contains("<dd>Ana</dd>"), "{entry}");
        let text = metrics.encode();
        assert!(text.contains("vitrine_edge_form_refusals_total{reason=\"rejected\"} 1"), "{text}");
        assert!(text.contains("vitrine_edge_form_dead_letters_total{result=\"written\"} 1"), "{text}");
    }
}

/// A spool line for `project` as an edge writes it.
fn line(project_id: i64, uid: &str, data: &str) -> Vec<u8> {
    Spooled {
        sub: NewSubmission {
            uid: uid.into(),
            project_id: ProjectId(project_id),
            url: "/contato".into(),
            submit: String::new(),
            to: "viva@example.com".into(),
            subject: format!("Contato {uid}"),
            data: data.into(),
            created_at: now(),
        },
        body: "Nova mensagem".into(),
        html: String::new(),
        lead: None,
    }
    .to_line()
}

fn write_spool(dir: &Path, lines: &[Vec<u8>]) {
    std::fs::write(dir.join(SPOOL_FILE), lines.concat()).unwrap();
}

dual_test! {
    async fn a_spool_with_a_poisoned_line_in_front_replays_everything_behind_it(db: TestDb) {
        // The spool a previous run of the edge left behind, poisoned in front: a torn line,
        // a submission for a project deleted since, and one an older edge wrote with a NUL.
        let left = owner_and_project(&db.store, "deixada").await;
        db.store.delete_project(ProjectId(left)).await.unwrap();
        let site_project = owner_and_project(&db.store, "viva").await;
        let spool = tempfile::tempdir().unwrap();
        let mut lines = vec![
            b"{\"sub\": {\"uid\": \"torn\", \"proj\n".to_vec(),
            line(left, "gone", "<dl><dt>nome</dt><dd>Ana</dd></dl>"),
            line(site_project, "old-edge", "<dl><dt>no\0me</dt><dd>Bia\0</dd></dl>"),
        ];
        for i in 0..5 {
            lines.push(line(site_project, &format!("good-{i}"), "<dl><dt>nome</dt><dd>Caio</dd></dl>"));
        }
        write_spool(spool.path(), &lines);

        let t = TestEdge::start_with(db, None, |s| {
            s.edge_spool_dir = Some(spool.path().to_path_buf());
        })
        .await;
        t.publish(site_project, basic("<h1>Viva</h1>")).await;
        // The replayer (every 2 s) takes every good line behind the poisoned ones.
        let store = &t.db.store;
        within(Duration::from_secs(20), "the good lines replayed", || async {
            history(store, site_project).await.len() == 6
        })
        .await;
        let rows = history(store, site_project).await;
        let old = rows.iter().find(|r| r.subject == "Contato old-edge").unwrap();
        assert_eq!(old.data, "<dl><dt>nome</dt><dd>Bia</dd></dl>", "cleaned on replay");
        assert_eq!(t.edge.forms.spooled().await, 0);
        let dead = std::fs::read_to_string(spool.path().join(DEAD_LETTER_FILE)).unwrap();
        assert_eq!(dead.lines().count(), 2, "{dead}");
        assert!(dead.contains("torn") && dead.contains("gone"), "{dead}");
        assert_eq!(t.metric("vitrine_edge_form_dead_letters_total{result=\"written\"}").await, 2);
        // The edge is in its normal mode: a new visitor's form is stored at once.
        let (status, _) = post(&t, "viva.localhost", None, b"nome=Duda").await;
        assert_eq!(status, 200);
        assert_eq!(history(store, site_project).await.len(), 7);
        assert_eq!(t.metric("vitrine_edge_spooled_submissions_total").await, 0);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_full_spool_answers_503_and_keeps_what_it_has(db: TestDb) {
        // The edge's own pool, closed below to play the outage.
        let edge_store = Store::connect(&db.url).await.unwrap();
        let spool = tempfile::tempdir().unwrap();
        let t = TestEdge::start_with(db, Some(edge_store.clone()), |s| {
            s.edge_spool_dir = Some(spool.path().to_path_buf());
            s.edge_spool_max_bytes = 4096;
            s.edge_form_rate_per_minute = 1000;
            s.edge_site_ttl_ms = 600_000;
        })
        .await;
        t.simple_site("loja", "<h1>Loja</h1>").await;
        t.until("loja.localhost", "/", 200, "Loja", Duration::from_secs(5)).await;
        edge_store.close().await;

        let mut spooled = 0;
        let mut last = (0, Value::Null);
        for _ in 0..40 {
            last = post(&t, "loja.localhost", None, b"nome=Ana&msg=durante+a+queda").await;
            if last.0 != 200 {
                break;
            }
            spooled += 1;
        }
        assert!(spooled >= 2, "some went to the spool first");
        assert_eq!(last.0, 503, "{last:?}");
        assert_eq!(last.1["error"], "spool_full");
        // A later one of the same size is refused too (the cap is in bytes: a smaller line
        // could still fit), and the spool stays within its cap with what it had.
        let r = t
            .client
            .post(t.url("/_forms"))
            .header("host", "loja.localhost")
            .header("content-type", "application/x-www-form-urlencoded")
            .body("nome=Bia&msg=durante+a+queda")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 503);
        assert!(r.headers().contains_key("retry-after"));
        assert_eq!(t.edge.forms.spooled().await, spooled);
        let size = std::fs::metadata(spool.path().join(SPOOL_FILE)).unwrap().len();
        assert!(size <= 4096, "{size}");
        assert_eq!(t.metric("vitrine_edge_form_refusals_total{reason=\"spool_full\"}").await, 2);
        assert_eq!(t.metric("vitrine_edge_form_spool_bytes").await, size);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_flood_past_the_history_cap_trims_the_oldest_entries_of_that_project_only(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.form_history_max_entries = 3).await;
        let a = t.simple_site("loja-a", "<h1>A</h1>").await;
        let b = t.simple_site("loja-b", "<h1>B</h1>").await;
        assert_eq!(post(&t, "loja-b.localhost", None, b"nome=B1").await.0, 200);
        for body in [&b"nome=A1"[..], b"nome=A2", b"nome=A3", b"nome=A4", b"nome=A5"] {
            assert_eq!(post(&t, "loja-a.localhost", None, body).await.0, 200);
        }
        let rows = history(&t.db.store, a).await;
        let kept: Vec<bool> = ["A3", "A4", "A5"]
            .iter()
            .map(|n| rows.iter().any(|r| r.data.contains(&format!("<dd>{n}</dd>"))))
            .collect();
        assert_eq!((rows.len(), kept), (3, vec![true, true, true]));
        let usage = t.db.store.form_history_usage(ProjectId(a)).await.unwrap();
        assert_eq!((usage.entries, usage.trimmed), (3, 2), "counted for the owner's notice");
        assert_eq!(history(&t.db.store, b).await.len(), 1, "the other site untouched");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn two_addresses_in_one_ipv6_slash_64_share_one_rate_limit_and_another_64_does_not(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_form_rate_per_minute = 2;
            s.edge_trusted_proxies = "127.0.0.1/8".into();
        })
        .await;
        t.simple_site("loja", "<h1>Loja</h1>").await;
        let host = "loja.localhost";
        assert_eq!(post(&t, host, Some("2001:db8:1:2::1"), b"nome=Ana").await.0, 200);
        assert_eq!(post(&t, host, Some("2001:db8:1:2:ffff:ffff:ffff:fffe"), b"nome=Ana").await.0, 200);
        // A third address of the same /64: the same visitor, whose budget is spent.
        let (status, body) = post(&t, host, Some("2001:db8:1:2:abcd::9"), b"nome=Ana").await;
        assert_eq!((status, body["error"].as_str()), (429, Some("rate_limited")));
        // The next /64 is someone else.
        assert_eq!(post(&t, host, Some("2001:db8:1:3::1"), b"nome=Bia").await.0, 200);
        // An IPv4 visitor written as a mapped IPv6 address is that IPv4 visitor.
        assert_eq!(post(&t, host, Some("203.0.113.7"), b"nome=Caio").await.0, 200);
        assert_eq!(post(&t, host, Some("::ffff:203.0.113.7"), b"nome=Caio").await.0, 200);
        assert_eq!(post(&t, host, Some("203.0.113.7"), b"nome=Caio").await.0, 429);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_site_flooded_from_many_addresses_runs_out_of_its_own_budget_alone(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_form_rate_per_minute = 100;
            s.edge_form_site_rate_per_minute = 3;
            s.edge_trusted_proxies = "127.0.0.1/8".into();
        })
        .await;
        let a = t.simple_site("loja-a", "<h1>A</h1>").await;
        let b = t.simple_site("loja-b", "<h1>B</h1>").await;
        for visitor in ["198.51.100.1", "198.51.100.2", "198.51.100.3"] {
            assert_eq!(post(&t, "loja-a.localhost", Some(visitor), b"nome=Ana").await.0, 200);
        }
        let (status, body) = post(&t, "loja-a.localhost", Some("198.51.100.4"), b"nome=Ana").await;
        assert_eq!((status, body["error"].as_str()), (429, Some("site_rate_limited")));
        // Another site, even from a visitor who just posted to the flooded one, is served.
        for visitor in ["198.51.100.1", "198.51.100.5"] {
            assert_eq!(post(&t, "loja-b.localhost", Some(visitor), b"nome=Bia").await.0, 200);
        }
        assert_eq!(history(&t.db.store, a).await.len(), 3);
        assert_eq!(history(&t.db.store, b).await.len(), 2);
        assert_eq!(t.metric("vitrine_edge_form_refusals_total{reason=\"site_rate_limited\"}").await, 1);
        t.edge.stop().await;
    }
}
