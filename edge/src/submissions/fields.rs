//! What a submission's fields become: read from a url-encoded or JSON body, cleaned of control
//! characters, and written out as the stored HTML, the notification e-mail (text and HTML) and
//! the Conversion API's `Lead` event.

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sha2::{Digest, Sha256};
use vitrine_shared::{media_type::essence, render::escape};

use super::{MAX_FIELDS, Refused};

/// A field name without NUL or any other control character (C0, DEL, C1).
pub fn clean_name(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}

/// A field value without NUL or any other control character, except tabs and line breaks
/// (`\r\n` and a lone `\r` become `\n`).
pub fn clean_value(s: &str) -> String {
    s.replace("\r\n", "\n")
        .replace('\r', "\n")
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect()
}

/// A value for a one-line place (a subject): line breaks and tabs become spaces.
pub(super) fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Reads url-encoded or JSON form bodies into cleaned (name, value) pairs, in order.
pub fn parse_fields(
    content_type: Option<&str>,
    body: &[u8],
) -> Result<Vec<(String, String)>, Refused> {
    let mime = essence(content_type.unwrap_or("application/x-www-form-urlencoded"));
    let fields: Vec<(String, String)> = match mime.as_str() {
        "application/x-www-form-urlencoded" | "" => {
            if std::str::from_utf8(body).is_err() {
                return Err(Refused::Malformed);
            }
            url::form_urlencoded::parse(body)
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        }
        "application/json" => {
            let v: Value = serde_json::from_slice(body).map_err(|_| Refused::Malformed)?;
            let Value::Object(map) = v else {
                return Err(Refused::Malformed);
            };
            map.into_iter()
                .map(|(k, v)| {
                    let text = match v {
                        Value::String(s) => s,
                        Value::Null => String::new(),
                        Value::Array(items) => items
                            .iter()
                            .map(|i| {
                                i.as_str()
                                    .map(str::to_string)
                                    .unwrap_or_else(|| i.to_string())
                            })
                            .collect::<Vec<_>>()
                            .join(", "),
                        other => other.to_string(),
                    };
                    (k, text)
                })
                .collect()
        }
        other => return Err(Refused::Unsupported(other.to_string())),
    };
    if fields.len() > MAX_FIELDS {
        return Err(Refused::TooManyFields);
    }
    // Names and values lose NUL and every other control character here, before anything
    // else sees them: PostgreSQL refuses a NUL in text, and no reader wants the rest.
    Ok(fields
        .into_iter()
        .map(|(k, v)| (clean_name(&k).chars().take(100).collect(), clean_value(&v)))
        .collect())
}

/// The visible fields as a definition list of escaped text, then through ammonia.
pub(super) fn as_html(fields: &[&(String, String)]) -> String {
    let rows = field_rows(fields, |k, v| format!("<dt>{k}</dt><dd>{v}</dd>"));
    ammonia::clean(&format!("<dl>{rows}</dl>"))
}

/// The fields as HTML, one `row(name, value)` each: both escaped, the value's line breaks kept
/// as `<br>`, so what a visitor wrote can only ever be text.
fn field_rows(fields: &[&(String, String)], row: impl Fn(&str, &str) -> String) -> String {
    fields
        .iter()
        .map(|(k, v)| row(&escape(k), &escape(v).replace('\n', "<br>")))
        .collect()
}

/// The notification e-mail as HTML: where it was sent from, then one table row per field
/// (name, value). Every visitor-written string is escaped, and nothing is a link, so a visitor
/// cannot put markup or a `javascript:` address in the owner's mailbox.
pub(super) fn mail_html(url: &str, fields: &[&(String, String)]) -> String {
    const CELL: &str =
        "padding:8px 12px;border-bottom:1px solid #e5e5e5;vertical-align:top;text-align:left";
    let mut html = format!(
        "<!doctype html><html><body style=\"font-family:Arial,Helvetica,sans-serif;color:#222\">\
         <p>Nova mensagem enviada pelo formulário em <b>{}</b></p>\
         <table style=\"border-collapse:collapse;min-width:320px\">",
        escape(url)
    );
    html.push_str(&field_rows(fields, |k, v| {
        format!(
            "<tr><th style=\"{CELL};background:#f6f6f6\">{k}</th><td style=\"{CELL}\">{v}</td></tr>"
        )
    }));
    html.push_str("</table></body></html>");
    html
}

/// What a conversion event is made of.
pub(super) struct Lead<'a> {
    pub(super) uid: &'a str,
    pub(super) at: DateTime<Utc>,
    pub(super) url: &'a str,
    pub(super) client: IpAddr,
    pub(super) user_agent: Option<&'a str>,
    pub(super) fields: &'a [&'a (String, String)],
}

/// The Conversion API `Lead` event for a submission, as Meta's documentation describes a
/// website event: `event_id` is the submission's uid (a replay sends the same id, which Meta
/// deduplicates), and the visitor's e-mail and telephone are normalised and SHA-256 hashed
/// here, so the queue never holds them in clear. The pixel id and access token are added by
/// the control plane when it sends.
pub(super) fn lead_event(lead: &Lead<'_>) -> String {
    let named = |words: &[&str]| {
        lead.fields.iter().find_map(|(k, v)| {
            let k = k.to_lowercase();
            words.iter().any(|w| k.contains(w)).then_some(v.as_str())
        })
    };
    let sha = |s: &str| hex::encode(Sha256::digest(s.as_bytes()));
    let mut user = serde_json::Map::new();
    user.insert("client_ip_address".into(), lead.client.to_string().into());
    if let Some(ua) = lead.user_agent {
        user.insert(
            "client_user_agent".into(),
            ua.chars().take(512).collect::<String>().into(),
        );
    }
    if let Some(email) = named(&["email", "e-mail"])
        .map(|e| e.trim().to_lowercase())
        .filter(|e| e.contains('@'))
    {
        user.insert("em".into(), serde_json::json!([sha(&email)]));
    }
    if let Some(phone) = named(&["phone", "telefone", "whatsapp", "celular"])
        .map(|p| p.chars().filter(char::is_ascii_digit).collect::<String>())
        .filter(|p| p.len() >= 8)
    {
        user.insert("ph".into(), serde_json::json!([sha(&phone)]));
    }
    serde_json::json!({
        "event_name": "Lead",
        "event_time": lead.at.timestamp(),
        "event_id": lead.uid,
        "action_source": "website",
        "event_source_url": lead.url,
        "user_data": user,
    })
    .to_string()
}

pub(super) fn as_text(url: &str, fields: &[&(String, String)]) -> String {
    let mut t = format!("Nova mensagem enviada pelo formulário em {url}\n\n");
    for (k, v) in fields {
        t.push_str(&format!("{k}: {v}\n"));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_parse_as_urlencoded_or_json() {
        let f = parse_fields(None, b"nome=Ana+Lima&email=ana%40x.com").unwrap();
        assert_eq!(f[0], ("nome".into(), "Ana Lima".into()));
        assert_eq!(f[1], ("email".into(), "ana@x.com".into()));
        let f = parse_fields(
            Some("application/json"),
            br#"{"a":"1","b":["x","y"],"c":2}"#,
        )
        .unwrap();
        assert_eq!(f.len(), 3);
        assert!(f.contains(&("b".into(), "x, y".into())));
        assert_eq!(
            parse_fields(Some("application/json"), b"[1]"),
            Err(Refused::Malformed)
        );
        assert_eq!(parse_fields(None, b"\xff\xfe=1"), Err(Refused::Malformed));
        assert!(matches!(
            parse_fields(Some("text/xml"), b"<a/>"),
            Err(Refused::Unsupported(_))
        ));
        let many: String = (0..200).map(|i| format!("f{i}=1&")).collect();
        assert_eq!(
            parse_fields(None, many.as_bytes()),
            Err(Refused::TooManyFields)
        );
    }

    #[test]
    fn stored_html_is_escaped_and_sanitised() {
        let a = (
            "nome<script>".to_string(),
            "<img src=x onerror=alert(1)>\nlinha".to_string(),
        );
        let html = as_html(&[&a]);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;img"), "{html}");
        assert!(html.contains("<br>linha"), "{html}");
    }

    #[test]
    fn the_lead_event_carries_hashed_contact_details_never_clear_ones() {
        let email = ("E-mail".to_string(), "  Ana.Lima@Example.COM ".to_string());
        let phone = ("WhatsApp".to_string(), "+55 (11) 98765-4321".to_string());
        let message = ("mensagem".to_string(), "quero um bolo".to_string());
        let at = DateTime::from_timestamp(1_790_000_000, 0).unwrap();
        let event: Value = serde_json::from_str(&lead_event(&Lead {
            uid: "uid-1",
            at,
            url: "https://loja.example/contato",
            client: IpAddr::from([203, 0, 113, 9]),
            user_agent: Some("Mozilla/5.0"),
            fields: &[&email, &phone, &message],
        }))
        .unwrap();
        assert_eq!(
            event,
            serde_json::json!({
                "event_name": "Lead",
                "event_time": 1_790_000_000,
                "event_id": "uid-1",
                "action_source": "website",
                "event_source_url": "https://loja.example/contato",
                "user_data": {
                    "client_ip_address": "203.0.113.9",
                    "client_user_agent": "Mozilla/5.0",
                    // sha256("ana.lima@example.com"), sha256("5511987654321")
                    "em": [hex::encode(Sha256::digest(b"ana.lima@example.com"))],
                    "ph": [hex::encode(Sha256::digest(b"5511987654321"))],
                },
            })
        );
        let text = event.to_string();
        assert!(!text.contains("ana.lima") && !text.contains("98765") && !text.contains("bolo"));

        // No e-mail or telephone field: only the visitor's address and browser.
        let event: Value = serde_json::from_str(&lead_event(&Lead {
            uid: "uid-2",
            at,
            url: "https://loja.example/",
            client: IpAddr::from([203, 0, 113, 9]),
            user_agent: None,
            fields: &[&message],
        }))
        .unwrap();
        assert_eq!(
            event["user_data"],
            serde_json::json!({"client_ip_address": "203.0.113.9"})
        );
    }

    #[test]
    fn the_notification_mail_shows_each_field_as_an_escaped_table_row() {
        let name = ("nome".to_string(), "Ana <b>Lima</b>".to_string());
        let message = (
            "mensagem<script>".to_string(),
            "<a href=\"javascript:alert(1)\">oi</a>\nlinha 2".to_string(),
        );
        let html = mail_html("https://loja.example/contato?x=<i>", &[&name, &message]);
        assert!(html.contains(
            "<th style=\"padding:8px 12px;border-bottom:1px solid #e5e5e5;vertical-align:top;text-align:left;background:#f6f6f6\">nome</th>"
        ), "{html}");
        assert!(html.contains(">Ana &lt;b&gt;Lima&lt;/b&gt;</td>"), "{html}");
        assert!(html.contains(">mensagem&lt;script&gt;</th>"), "{html}");
        assert!(
            html.contains("&lt;a href=&quot;javascript:alert(1)&quot;&gt;oi&lt;/a&gt;<br>linha 2"),
            "{html}"
        );
        assert!(
            html.contains("<b>https://loja.example/contato?x=&lt;i&gt;</b>"),
            "{html}"
        );
        assert_eq!(html.matches("<tr>").count(), 2);
        assert!(!html.contains("<script") && !html.contains("<a "), "{html}");
    }

    #[test]
    fn nul_and_control_characters_leave_names_and_values_but_lines_and_tabs_stay() {
        let f = parse_fields(
            None,
            b"no%00me%01=Ana%00Lima%07%1b%5B31m&msg=linha+1%0D%0Alinha+2%09fim%7F%C2%85",
        )
        .unwrap();
        assert_eq!(f[0], ("nome".into(), "AnaLima[31m".into()));
        assert_eq!(f[1], ("msg".into(), "linha 1\nlinha 2\tfim".into()));
        let f = parse_fields(
            Some("application/json"),
            br#"{"a\u0000b":"x\u0000y\r\nz","c":["\u0000", "d"]}"#,
        )
        .unwrap();
        assert!(f.contains(&("ab".into(), "xy\nz".into())), "{f:?}");
        assert!(f.contains(&("c".into(), ", d".into())), "{f:?}");
        assert_eq!(one_line("Assunto\ncom\tquebra"), "Assunto com quebra");
    }
}
