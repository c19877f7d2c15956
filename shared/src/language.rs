//! The dashboard's languages, in which an account reads its screens and its mail (spec 2 §3):
//! stored and sent as their BCP 47 tag.

use crate::text_code::text_code;

/// An account's interface language; a new account's is Portuguese (Brazil).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Language {
    /// Português (Brasil), the default.
    #[default]
    PtBr,
    /// English.
    En,
}

text_code!(Language, "language", [PtBr => "pt-BR", En => "en"]);

impl Language {
    /// Whether mail and messages to this account are written in English.
    pub const fn is_english(self) -> bool {
        matches!(self, Language::En)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_read_and_write_their_tags() {
        for language in Language::ALL {
            assert_eq!(language.code().parse::<Language>(), Ok(*language));
        }
        assert_eq!(Language::default().code(), "pt-BR");
        assert!(
            "pt-br".parse::<Language>().is_err(),
            "tags are matched exactly"
        );
        assert!("fr".parse::<Language>().is_err());
    }

    #[test]
    fn the_document_lists_the_tags_as_a_named_string_enum() {
        use utoipa::{PartialSchema, ToSchema};
        let schema = serde_json::to_value(<Language as PartialSchema>::schema()).unwrap();
        assert_eq!(
            schema,
            serde_json::json!({"type": "string", "enum": ["pt-BR", "en"]})
        );
        assert_eq!(<Language as ToSchema>::name(), "Language");
    }
}
