//! A collection field for tests and benchmarks of the per-value rules (`crate::fields`).

use crate::fields::{FieldDef, FieldMeta, FieldOption, FieldType};
use crate::ids::FieldId;

/// A field of `kind` named "Campo", not required, whose options (for the choice types) are
/// "Azul" and "Verde".
pub fn field(kind: FieldType) -> FieldDef {
    FieldDef {
        id: FieldId(1),
        name: "Campo".into(),
        slug: "campo".into(),
        kind,
        required: false,
        options: ["Azul", "Verde"]
            .map(|name| FieldOption {
                name: name.into(),
                image: None,
            })
            .into(),
        meta: FieldMeta::default(),
    }
}
