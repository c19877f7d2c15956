//! The card on file, against a local stand-in for the payment provider's HTTP API.

use std::sync::{Arc, Mutex};

use axum::{
    Json, Router,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    response::IntoResponse,
    routing::post,
};
use serde_json::json;
use vitrine_shared::{dual_test, secret::Secret, testing::Backend};

use crate::helpers::{TestApp, expect_error, json_ok};

/// Requests the stand-in received: (path, form body, authorization header).
type Calls = Arc<Mutex<Vec<(String, String, String)>>>;

fn record(calls: &Calls, path: &str, headers: &HeaderMap, body: String) {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    calls.lock().unwrap().push((path.to_string(), body, auth));
}

/// Answers like the provider: setup intents, customers, and a declined card `pm_declined`.
async fn stand_in() -> (String, Calls) {
    let calls: Calls = Arc::default();
    let app = Router::new()
        .route("/v1/setup_intents", post(|State(c): State<Calls>, h: HeaderMap, body: String| async move {
            record(&c, "/v1/setup_intents", &h, body);
            Json(json!({"id": "seti_1", "client_secret": "seti_1_secret_abc"}))
        }))
        .route("/v1/customers", post(|State(c): State<Calls>, h: HeaderMap, body: String| async move {
            record(&c, "/v1/customers", &h, body);
            Json(json!({"id": "cus_1"}))
        }))
        .route("/v1/customers/{id}", post(|State(c): State<Calls>, Path(id): Path<String>, h: HeaderMap, body: String| async move {
            record(&c, &format!("/v1/customers/{id}"), &h, body);
            Json(json!({"id": id}))
        }))
        .route("/v1/payment_methods/{pm}/attach", post(|State(c): State<Calls>, Path(pm): Path<String>, h: HeaderMap, body: String| async move {
            record(&c, &format!("/v1/payment_methods/{pm}/attach"), &h, body);
            if pm == "pm_declined" {
                (StatusCode::PAYMENT_REQUIRED, Json(json!({"error": {"message": "Your card was declined."}}))).into_response()
            } else {
                Json(json!({"id": pm})).into_response()
            }
        }))
        .with_state(calls.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, calls)
}

dual_test!(
    async fn without_keys_card_payments_are_not_configured(app: TestApp) {
        let s = app.register("ana@example.com").await;
        let msg = expect_error(
            app.get(&s, "/api/stripe-config").await,
            reqwest::StatusCode::SERVICE_UNAVAILABLE,
        )
        .await;
        assert_eq!(msg, "Card payments are not configured");
        let path = format!("/api/stripe-setup-intent/{}", s.id());
        expect_error(
            app.get(&s, &path).await,
            reqwest::StatusCode::SERVICE_UNAVAILABLE,
        )
        .await;
    }
);

async fn card_on_file(backend: Backend) {
    let (provider, calls) = stand_in().await;
    let app = TestApp::with(backend, |s| {
        s.stripe_public_key = Some("pk_test_1".into());
        s.stripe_secret_key = Some(Secret::new("sk_test_1"));
        s.stripe_api_url = provider.clone();
        s.stripe_js_url = format!("{provider}/stripe.js");
    })
    .await;
    let ana = app.register("ana@example.com").await;
    let bob = app.register("bob@example.com").await;
    let config = json_ok(app.get(&ana, "/api/stripe-config").await).await;
    assert_eq!(
        config,
        json!({"publicKey": "pk_test_1", "jsUrl": format!("{provider}/stripe.js")})
    );

    // Only one's own id.
    expect_error(
        app.get(&ana, &format!("/api/stripe-setup-intent/{}", bob.id()))
            .await,
        reqwest::StatusCode::NOT_FOUND,
    )
    .await;
    let intent = json_ok(
        app.get(&ana, &format!("/api/stripe-setup-intent/{}", ana.id()))
            .await,
    )
    .await;
    assert_eq!(intent, json!({"client_secret": "seti_1_secret_abc"}));
    assert_eq!(
        json_ok(app.get(&ana, "/api/user").await).await["has_card"],
        false,
        "no card until one is confirmed"
    );

    // The confirmed card becomes the default of a new customer; a card is then on file.
    let set = |pm: &str| format!("/api/stripe-set-default-payment-method/{}/{pm}", ana.id());
    let res = app.post(&ana, &set("pm_1"), json!({})).await;
    assert_eq!(res.status(), reqwest::StatusCode::NO_CONTENT);
    assert_eq!(
        json_ok(app.get(&ana, "/api/user").await).await["has_card"],
        true
    );

    // A second card is attached to the same customer; a declined one says why.
    let res = app.post(&ana, &set("pm_2"), json!({})).await;
    assert_eq!(res.status(), reqwest::StatusCode::NO_CONTENT);
    let msg = expect_error(
        app.post(&ana, &set("pm_declined"), json!({})).await,
        reqwest::StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(msg, "Your card was declined.");
    let msg = expect_error(
        app.post(&ana, &set("pm-x"), json!({})).await,
        reqwest::StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(msg, "Invalid payment method");
    expect_error(
        app.post(&bob, &set("pm_1"), json!({})).await,
        reqwest::StatusCode::NOT_FOUND,
    )
    .await;

    let calls = calls.lock().unwrap().clone();
    let paths: Vec<&str> = calls.iter().map(|(p, _, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/v1/setup_intents",
            "/v1/customers",
            "/v1/payment_methods/pm_2/attach",
            "/v1/customers/cus_1",
            "/v1/payment_methods/pm_declined/attach",
        ]
    );
    assert!(calls.iter().all(|(_, _, auth)| auth == "Bearer sk_test_1"));
    let customer = &calls[1].1;
    for part in [
        "email=ana%40example.com",
        "payment_method=pm_1",
        "invoice_settings%5Bdefault_payment_method%5D=pm_1",
    ] {
        assert!(customer.contains(part), "{customer}");
    }
    assert!(
        calls[3]
            .1
            .contains("invoice_settings%5Bdefault_payment_method%5D=pm_2"),
        "{}",
        calls[3].1
    );

    // The provider unreachable: 503 saying so.
    let offline = TestApp::with(backend, |s| {
        s.stripe_public_key = Some("pk_test_1".into());
        s.stripe_secret_key = Some(Secret::new("sk_test_1"));
        s.stripe_api_url = "http://127.0.0.1:9".into();
    })
    .await;
    let cid = offline.register("cid@example.com").await;
    let msg = expect_error(
        offline
            .get(&cid, &format!("/api/stripe-setup-intent/{}", cid.id()))
            .await,
        reqwest::StatusCode::SERVICE_UNAVAILABLE,
    )
    .await;
    assert!(
        msg.starts_with("The payment provider could not be reached"),
        "{msg}"
    );
}

#[tokio::test]
async fn a_card_is_put_on_file_through_the_provider_sqlite() {
    card_on_file(Backend::Sqlite).await;
}

#[tokio::test]
async fn a_card_is_put_on_file_through_the_provider_postgres() {
    card_on_file(Backend::Postgres).await;
}
