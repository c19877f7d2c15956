//! Media types as HTTP carries them (`Content-Type`): the type the servers compare, apart
//! from its parameters, read the same way by the control plane and the edge.

/// The essence of a `Content-Type` value (RFC 9110 §8.3.1): type and subtype, lower-cased,
/// without parameters or surrounding white space (`Text/HTML; charset=utf-8` → `text/html`).
pub fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::essence;

    #[test]
    fn essence_drops_parameters_and_case() {
        assert_eq!(essence("Text/HTML; charset=utf-8"), "text/html");
        assert_eq!(essence(" application/json "), "application/json");
        assert_eq!(
            essence("application/ld+json;profile=x"),
            "application/ld+json"
        );
        assert_eq!(essence(""), "");
        assert_eq!(essence(";charset=utf-8"), "");
    }
}
