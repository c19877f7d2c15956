//! What a domain check found, in the owner's language: each finding is a stable code with its
//! values (`dns_txt_missing` with `record`), which the dashboard translates from its catalogue,
//! and an English sentence for API clients and logs.
//!
//! `POST /api/dns-verify` answers with it (the spec's text, or JSON when the caller asks for
//! it), and the background re-check ([`crate::domains::checks`]) stores it as the pending
//! domain's `last_result`, so the overview can say in Portuguese what the last check saw.

use axum::{
    Json,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use vitrine_shared::{
    dns::{DnsCheck, Pointing, Proof, Verdict, Verification},
    domain::challenge_name,
    error_code::{ErrorCode, Params},
};

/// One finding of a check: a code, its values, and its English sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Finding {
    /// Translated by the dashboard as `errors.<code>` with `params`.
    #[schema(value_type = ErrorCode)]
    pub code: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Params::is_empty")]
    #[schema(value_type = Object)]
    pub params: Params,
}

impl Finding {
    fn new(code: ErrorCode, message: String, params: serde_json::Value) -> Self {
        let params = match params {
            serde_json::Value::Object(map) => map,
            _ => Params::new(),
        };
        Finding {
            code: code.as_str().to_string(),
            message,
            params,
        }
    }
}

/// What a check found: the outcome (`dns_verified…`, `dns_not_ready`, `dns_unreachable`,
/// `domain_in_use`) and, when it is not verified, each thing found and each record to set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DnsReport {
    /// The outcome's code; null only for a result stored as plain text before codes existed.
    #[schema(value_type = Option<ErrorCode>)]
    pub code: Option<String>,
    /// The whole answer in English (the text `POST /api/dns-verify` sends).
    pub message: String,
    #[serde(default, skip_serializing_if = "Params::is_empty")]
    #[schema(value_type = Object)]
    pub params: Params,
    /// What was found, what to set, and what happens next, in that order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Finding>,
}

impl DnsReport {
    fn new(outcome: Finding, details: Vec<Finding>) -> Self {
        DnsReport {
            code: Some(outcome.code),
            message: outcome.message,
            params: outcome.params,
            details,
        }
    }

    /// The background check's finding that another project proved the name first.
    pub fn in_use(domain: &str) -> Self {
        Self::new(
            Finding::new(
                ErrorCode::DomainInUse,
                format!("{domain} is in use by another project."),
                json!({ "domain": domain }),
            ),
            Vec::new(),
        )
    }

    /// The stored form (`domain_claims.last_result`).
    pub fn stored(&self) -> String {
        serde_json::to_string(self).expect("a report serializes")
    }

    /// A stored result: JSON, or the plain English text results were stored as before.
    pub fn from_stored(text: &str) -> Self {
        serde_json::from_str(text).unwrap_or_else(|_| DnsReport {
            code: None,
            message: text.to_string(),
            params: Params::new(),
            details: Vec::new(),
        })
    }

    /// The answer to `POST /api/dns-verify`: the English text (the spec's answer), or, for a
    /// caller that accepts JSON (the dashboard), the report itself; a failure is then the API's
    /// error shape (`error` for `code`), so every client reads it as it reads other errors.
    pub fn respond(self, status: StatusCode, headers: &HeaderMap) -> Response {
        if !accepts_json(headers) {
            return (status, self.message).into_response();
        }
        if status.is_success() {
            return (status, Json(self)).into_response();
        }
        let body = json!({
            "error": self.code,
            "message": self.message,
            "params": self.params,
            "details": self.details,
        });
        (status, Json(body)).into_response()
    }
}

/// Whether the request's `Accept` names JSON (the dashboard sends `application/json`; a
/// browser's or curl's default does not).
fn accepts_json(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let media = item.split(';').next().unwrap_or("").trim();
            media.eq_ignore_ascii_case("application/json")
        })
}

/// The status and the report for a check's outcome: where the domain points when it is
/// verified; else what was found, what to set, and that it waits as pending (`held`: it is
/// already this project's verified domain, which a failed re-check does not change).
pub fn report(
    check: &DnsCheck,
    domain: &str,
    token: &str,
    outcome: &Verification,
    held: bool,
) -> (StatusCode, DnsReport) {
    if outcome.verified() {
        let verified = match &outcome.pointing {
            Verdict::Points(Pointing::Address(ip)) => Finding::new(
                ErrorCode::DnsVerifiedAddress,
                format!("Domain verified: {domain} points to {ip}"),
                json!({ "domain": domain, "ip": ip.to_string() }),
            ),
            Verdict::Points(Pointing::Alias(alias)) => Finding::new(
                ErrorCode::DnsVerifiedAlias,
                format!("Domain verified: {domain} is an alias of {alias}"),
                json!({ "domain": domain, "alias": alias }),
            ),
            _ => Finding::new(
                ErrorCode::DnsVerified,
                format!("Domain verified: {domain}"),
                json!({ "domain": domain }),
            ),
        };
        return (StatusCode::OK, DnsReport::new(verified, Vec::new()));
    }
    let after = if held {
        Finding::new(
            ErrorCode::DnsHeld,
            format!("{domain} stays verified for this project; nothing was changed."),
            json!({ "domain": domain }),
        )
    } else {
        Finding::new(
            ErrorCode::DnsPending,
            format!(
                "{domain} is saved as pending: we check it again on our own, and it starts \
                 working as soon as both records are in place. DNS changes can take a while to \
                 reach every server."
            ),
            json!({ "domain": domain }),
        )
    };
    if outcome.unreachable().is_some() {
        let outcome = Finding::new(
            ErrorCode::DnsUnreachable,
            format!(
                "The DNS servers could not be reached to check {domain}. {} You can also try \
                 again in a few minutes.",
                after.message
            ),
            json!({ "domain": domain }),
        );
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            DnsReport::new(outcome, vec![after]),
        );
    }
    let address = check
        .addresses()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>();
    let target = check.cname_target();
    let record = challenge_name(domain);
    let mut found = Vec::new();
    let mut to_set = Vec::new();
    let set_txt = || {
        Finding::new(
            ErrorCode::DnsSetTxt,
            format!("a TXT record {record} with the value {token}"),
            json!({ "record": record, "token": token }),
        )
    };
    match &outcome.proof {
        Proof::Proven => found.push(Finding::new(
            ErrorCode::DnsTxtProven,
            format!("{record} holds this project's token."),
            json!({ "record": record }),
        )),
        Proof::Missing => {
            found.push(Finding::new(
                ErrorCode::DnsTxtMissing,
                format!("{record} has no TXT record yet."),
                json!({ "record": record }),
            ));
            to_set.push(set_txt());
        }
        Proof::Wrong(values) => {
            found.push(Finding::new(
                ErrorCode::DnsTxtWrong,
                format!(
                    "{record} has no TXT record with this project's token (found: {}).",
                    values.join(", ")
                ),
                json!({ "record": record, "found": values.join(", ") }),
            ));
            to_set.push(set_txt());
        }
        Proof::Unreachable(_) => {}
    }
    let set_pointing = || {
        Finding::new(
            ErrorCode::DnsSetPointing,
            format!(
                "an A record to {} or a CNAME to {target}",
                address.join(" or ")
            ),
            json!({ "address": address.join(", "), "target": target }),
        )
    };
    match &outcome.pointing {
        Verdict::Points(Pointing::Address(ip)) => found.push(Finding::new(
            ErrorCode::DnsPointsAddress,
            format!("{domain} points to {ip}."),
            json!({ "domain": domain, "ip": ip.to_string() }),
        )),
        Verdict::Points(Pointing::Alias(alias)) => found.push(Finding::new(
            ErrorCode::DnsPointsAlias,
            format!("{domain} is an alias of {alias}."),
            json!({ "domain": domain, "alias": alias }),
        )),
        Verdict::Elsewhere(values) => {
            found.push(Finding::new(
                ErrorCode::DnsPointsElsewhere,
                format!(
                    "{domain} does not point to {} (found: {}).",
                    address.join(" or "),
                    values.join(", ")
                ),
                json!({
                    "domain": domain,
                    "address": address.join(", "),
                    "found": values.join(", "),
                }),
            ));
            to_set.push(set_pointing());
        }
        Verdict::NoRecords => {
            found.push(Finding::new(
                ErrorCode::DnsNoRecords,
                format!("{domain} has no A, AAAA or CNAME record yet."),
                json!({ "domain": domain }),
            ));
            to_set.push(set_pointing());
        }
        Verdict::Unreachable(_) => {}
    }
    let proxy = Finding::new(
        ErrorCode::DnsProxyOff,
        "If a CDN proxy is used it must be off.".to_string(),
        json!({}),
    );
    let message = format!(
        "{} Set {}. {} {}",
        found
            .iter()
            .map(|f| f.message.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        to_set
            .iter()
            .map(|f| f.message.as_str())
            .collect::<Vec<_>>()
            .join(", and "),
        proxy.message,
        after.message
    );
    let not_ready = Finding {
        message,
        ..Finding::new(
            ErrorCode::DnsNotReady,
            String::new(),
            json!({ "domain": domain }),
        )
    };
    // Each record to set reads as its own sentence in the details.
    let to_set = to_set.into_iter().map(|f| Finding {
        message: format!("Set {}.", f.message),
        ..f
    });
    let details = found
        .into_iter()
        .chain(to_set)
        .chain([proxy, after])
        .collect();
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        DnsReport::new(not_ready, details),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_shared::Settings;

    fn check() -> DnsCheck {
        DnsCheck::from_settings(&Settings {
            public_ip: "203.0.113.7".into(),
            cname_target: Some("sites.example".into()),
            ..Settings::default()
        })
        .unwrap()
    }

    fn outcome(proof: Proof, pointing: Verdict) -> Verification {
        Verification { proof, pointing }
    }

    const TOKEN: &str = "vitrine-verify=abc";

    fn codes(report: &DnsReport) -> Vec<&str> {
        report.details.iter().map(|f| f.code.as_str()).collect()
    }

    #[test]
    fn every_outcome_says_what_was_found_and_what_to_set() {
        let c = check();
        let here = Verdict::Points(Pointing::Address("203.0.113.7".parse().unwrap()));
        let (status, r) = report(
            &c,
            "shop.example",
            TOKEN,
            &outcome(Proof::Proven, here.clone()),
            false,
        );
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            r.message,
            "Domain verified: shop.example points to 203.0.113.7"
        );
        assert_eq!(r.code.as_deref(), Some("dns_verified_address"));
        assert_eq!(r.params["ip"], "203.0.113.7");
        assert!(r.details.is_empty());

        // Pointing here without the proof (a dangling or wildcard record): not verified.
        let (status, r) = report(
            &c,
            "shop.example",
            TOKEN,
            &outcome(Proof::Missing, here.clone()),
            false,
        );
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            r.message,
            "_vitrine-challenge.shop.example has no TXT record yet. shop.example points to \
             203.0.113.7. Set a TXT record _vitrine-challenge.shop.example with the value \
             vitrine-verify=abc. If a CDN proxy is used it must be off. shop.example is saved \
             as pending: we check it again on our own, and it starts working as soon as both \
             records are in place. DNS changes can take a while to reach every server."
        );
        assert_eq!(r.code.as_deref(), Some("dns_not_ready"));
        assert_eq!(
            codes(&r),
            [
                "dns_txt_missing",
                "dns_points_address",
                "dns_set_txt",
                "dns_proxy_off",
                "dns_pending"
            ]
        );
        assert_eq!(r.details[2].params["token"], TOKEN);
        assert_eq!(
            r.details[2].message,
            "Set a TXT record _vitrine-challenge.shop.example with the value vitrine-verify=abc."
        );

        let (status, r) = report(
            &c,
            "shop.example",
            TOKEN,
            &outcome(
                Proof::Wrong(vec!["vitrine-verify=other".into()]),
                Verdict::Elsewhere(vec!["198.51.100.9".into()]),
            ),
            false,
        );
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            r.message.starts_with(
                "_vitrine-challenge.shop.example has no TXT record with this project's token \
                 (found: vitrine-verify=other). shop.example does not point to 203.0.113.7 \
                 (found: 198.51.100.9). Set a TXT record _vitrine-challenge.shop.example with \
                 the value vitrine-verify=abc, and an A record to 203.0.113.7 or a CNAME to \
                 sites.example."
            ),
            "{}",
            r.message
        );
        assert_eq!(
            codes(&r),
            [
                "dns_txt_wrong",
                "dns_points_elsewhere",
                "dns_set_txt",
                "dns_set_pointing",
                "dns_proxy_off",
                "dns_pending"
            ]
        );
        assert_eq!(r.details[1].params["found"], "198.51.100.9");
        assert_eq!(r.details[3].params["target"], "sites.example");

        let (status, r) = report(
            &c,
            "shop.example",
            TOKEN,
            &outcome(Proof::Proven, Verdict::NoRecords),
            true,
        );
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            r.message.contains("holds this project's token")
                && r.message
                    .contains("Set an A record to 203.0.113.7 or a CNAME to sites.example.")
                && r.message.ends_with(
                    "shop.example stays verified for this project; nothing was changed."
                ),
            "{}",
            r.message
        );
        assert_eq!(codes(&r).last(), Some(&"dns_held"));

        let (status, r) = report(
            &c,
            "shop.example",
            TOKEN,
            &outcome(Proof::Unreachable("timeout".into()), here),
            false,
        );
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            r.message.contains("could not be reached") && r.message.contains("saved as pending"),
            "{}",
            r.message
        );
        assert!(!r.message.contains("timeout"));
        assert_eq!(r.code.as_deref(), Some("dns_unreachable"));
        assert_eq!(codes(&r), ["dns_pending"]);
    }

    #[test]
    fn a_stored_report_reads_back_and_old_plain_text_keeps_its_words() {
        let (_, r) = report(
            &check(),
            "shop.example",
            TOKEN,
            &outcome(Proof::Missing, Verdict::NoRecords),
            false,
        );
        assert_eq!(DnsReport::from_stored(&r.stored()), r);
        let old = DnsReport::from_stored("shop.example has no TXT record yet.");
        assert_eq!(old.code, None);
        assert_eq!(old.message, "shop.example has no TXT record yet.");
    }

    #[test]
    fn json_only_for_a_caller_that_asks_for_it() {
        let mut headers = HeaderMap::new();
        assert!(!accepts_json(&headers));
        headers.insert(header::ACCEPT, "*/*".parse().unwrap());
        assert!(!accepts_json(&headers));
        headers.insert(
            header::ACCEPT,
            "text/html, Application/JSON;q=0.9".parse().unwrap(),
        );
        assert!(accepts_json(&headers));
    }
}
