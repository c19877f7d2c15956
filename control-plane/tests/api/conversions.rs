//! Server-side `Lead` events for the Facebook Conversion API, against a local stand-in of the
//! Graph API: each queued event goes out with its own project's token and pixel, a refusal is
//! given up, a server error is retried.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    response::IntoResponse,
    routing::post,
};
use serde_json::{Value, json};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    dual_test,
    store::{NewSubmission, now},
    testing::Backend,
};

use crate::helpers::{Session, TestApp, json_ok, metric, wait_until};

/// Requests the stand-in received: (pixel id, JSON body).
type Calls = Arc<Mutex<Vec<(String, Value)>>>;

/// Answers like the Graph API: `events_received`, a 400 for the token `revoked`, a 503 for the
/// token `busy`.
async fn graph_stand_in() -> (String, Calls) {
    let calls: Calls = Arc::default();
    let app = Router::new()
        .route(
            "/v21.0/{pixel}/events",
            post(
                |State(c): State<Calls>, Path(pixel): Path<String>, Json(body): Json<Value>| async move {
                    let token = body["access_token"].as_str().unwrap_or("").to_string();
                    c.lock().unwrap().push((pixel, body));
                    match token.as_str() {
                        "revoked" => (
                            StatusCode::BAD_REQUEST,
                            Json(json!({"error": {"message": "Invalid OAuth access token.", "code": 190}})),
                        )
                            .into_response(),
                        "busy" => StatusCode::SERVICE_UNAVAILABLE.into_response(),
                        _ => Json(json!({"events_received": 1, "fbtrace_id": "x"})).into_response(),
                    }
                },
            ),
        )
        .with_state(calls.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v21.0", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, calls)
}

/// A control plane whose Conversion API is the stand-in.
pub struct GraphApp {
    app: TestApp,
    calls: Calls,
}

impl GraphApp {
    async fn new(backend: Backend) -> GraphApp {
        let (url, calls) = graph_stand_in().await;
        let app = TestApp::with(backend, |s| s.conversion_api_url = url).await;
        GraphApp { app, calls }
    }

    /// A project of a new owner with the integration on, with `token` and `pixel`.
    async fn site(&self, email: &str, token: &str, pixel: &str) -> (Session, i64) {
        let s = self.app.register(email).await;
        let id = self.app.create_project(&s, "Loja").await["id"]
            .as_i64()
            .unwrap();
        json_ok(
            self.app
                .post(
                    &s,
                    &format!("/api/projects/{id}"),
                    json!({"meta": {"conversionApiEnabled": true,
                        "conversionApiAccessToken": token, "conversionApiPixelId": pixel}}),
                )
                .await,
        )
        .await;
        (s, id)
    }

    /// What the edge does with a submission on a site with the integration on.
    async fn visitor_submits(&self, project: i64, uid: &str) {
        let sub = NewSubmission {
            uid: uid.into(),
            project_id: ProjectId(project),
            url: "/contato".into(),
            submit: String::new(),
            to: String::new(),
            subject: "Contato".into(),
            data: "<dl><dt>nome</dt><dd>Ana</dd></dl>".into(),
            created_at: now(),
        };
        let lead = json!({"event_name": "Lead", "event_id": uid, "action_source": "website",
            "event_time": 1_790_000_000, "user_data": {"client_ip_address": "203.0.113.9"}});
        let stored = self
            .app
            .store
            .store_submission_with_lead(&sub, None, Some(&lead.to_string()), 1000)
            .await
            .unwrap();
        assert!(stored.new);
    }

    /// Waits until the stand-in has received `n` requests, and returns them.
    async fn received(&self, n: usize) -> Vec<(String, Value)> {
        wait_until(
            "the stand-in's requests",
            Duration::from_secs(30),
            async || self.calls.lock().unwrap().len() >= n,
        )
        .await;
        let calls = self.calls.lock().unwrap().clone();
        assert_eq!(calls.len(), n, "requests received: {calls:?}");
        calls
    }

    /// Waits until every event of `project` is settled (sent or given up), and returns them.
    async fn settled(&self, project: i64) -> Vec<(String, bool, Option<String>)> {
        let settled = |events: &[(String, bool, Option<String>)]| {
            events
                .iter()
                .all(|(_, sent, error)| *sent || error.is_some())
        };
        wait_until("the events settled", Duration::from_secs(30), async || {
            settled(
                &self
                    .app
                    .store
                    .conversions_of(ProjectId(project))
                    .await
                    .unwrap(),
            )
        })
        .await;
        self.app
            .store
            .conversions_of(ProjectId(project))
            .await
            .unwrap()
    }

    /// Rounds the Conversion API worker has finished.
    async fn rounds(&self) -> f64 {
        metric(
            &self.app,
            r#"vitrine_control_worker_rounds_total{worker="conversions"}"#,
        )
        .await
    }
}

dual_test! {
    async fn each_lead_goes_out_with_its_own_sites_token_and_pixel(g: GraphApp) {
        let (_, a) = g.site("dona-a@example.com", "token-a", "111").await;
        let (_, b) = g.site("dona-b@example.com", "token-b", "222").await;
        g.visitor_submits(a, "uid-a").await;
        g.visitor_submits(b, "uid-b").await;

        let mut calls = g.received(2).await;
        calls.sort_by(|x, y| x.0.cmp(&y.0));
        let seen: Vec<(&str, &str, &str)> = calls
            .iter()
            .map(|(pixel, body)| {
                (
                    pixel.as_str(),
                    body["access_token"].as_str().unwrap(),
                    body["data"][0]["event_id"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(seen, [("111", "token-a", "uid-a"), ("222", "token-b", "uid-b")]);
        assert_eq!(calls[0].1["data"][0]["event_name"], "Lead");
        assert_eq!(calls[0].1["data"].as_array().unwrap().len(), 1);

        let events = g.settled(a).await;
        assert_eq!(events.len(), 1);
        assert!(events[0].1, "marked sent: {events:?}");
    }
}

dual_test! {
    async fn a_refused_token_is_given_up_a_busy_server_is_retried_and_a_site_turned_off_sends_nothing(g: GraphApp) {
        let (_, revoked) = g.site("revogado@example.com", "revoked", "333").await;
        g.visitor_submits(revoked, "uid-revoked").await;
        g.received(1).await;
        let events = g.settled(revoked).await;
        assert!(!events[0].1);
        assert_eq!(
            events[0].2.as_deref(),
            Some("400 Bad Request: Invalid OAuth access token.")
        );

        let (_, busy) = g.site("ocupado@example.com", "busy", "444").await;
        g.visitor_submits(busy, "uid-busy").await;
        g.received(2).await;
        let events = g.settled(busy).await;
        assert!(!events[0].1);
        assert_eq!(events[0].2.as_deref(), Some("503 Service Unavailable: "));

        // The owner turns the integration off before the worker sends: the event is dropped,
        // never sent with stale credentials.
        let (s, off) = g.site("desligou@example.com", "token-c", "555").await;
        json_ok(
            g.app
                .post(&s, &format!("/api/projects/{off}"), json!({"meta": {"conversionApiEnabled": false}}))
                .await,
        )
        .await;
        g.visitor_submits(off, "uid-off").await;
        let events = g.settled(off).await;
        assert_eq!(events[0].2.as_deref(), Some("the Conversion API is off for this site"));
        // Only the two earlier requests ever reached the stand-in (the busy one is not due
        // again for 30 s). The round that settled the last event has finished once the count
        // of rounds passes what it is now (if that round was over already, the next one has
        // run too), and a round's requests are all made before it ends.
        let rounds = g.rounds().await;
        wait_until("a round of the worker", Duration::from_secs(30), async || {
            g.rounds().await > rounds
        })
        .await;
        assert_eq!(g.calls.lock().unwrap().len(), 2);
    }
}
