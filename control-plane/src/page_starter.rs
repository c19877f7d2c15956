//! A collection page never opens empty (issue 41 §4): a page made as a collection page
//! (`POST /api/pages` with a `table_id`) gets the library's detail block for that collection (the product
//! detail when the collection sells, with a price or a WhatsApp field; the post header and
//! content otherwise), each of its post bindings pointed at the collection's own fields by the
//! same rules the editor uses when a list is bound (`dashboard/src/features/pages/lib/binding.ts`).

use serde_json::{Value, json};
use vitrine_shared::ids::CollectionId;
use vitrine_shared::{domain::slugify, store::Field};

use crate::{base::Core, error::Result};

/// The library blocks a product collection's page starts with.
const PRODUCT: &[&str] = &["collection-item/02-detalhe-do-produto"];
/// The library blocks any other collection's page starts with.
const POST: &[&str] = &[
    "collection-item/00-cabecalho-do-post",
    "collection-item/01-conteudo-do-post",
];

/// What a post binding can name besides the collection's fields (docs/blocks.md).
const BUILT_IN: &[&str] = &["name", "slug", "date", "date_long", "url", "permalink"];

const TEXT: &[&str] = &["textarea", "wysiwyg", "text", "string"];
const RICH: &[&str] = &["wysiwyg", "textarea", "text", "string"];
const IMAGES: &[&str] = &["image", "gallery", "image-select"];

enum To {
    BuiltIn(&'static str),
    Types(&'static [&'static str]),
}

/// Tried in order: the first rule whose words the variable's name or label holds decides.
const RULES: &[(&[&str], To)] = &[
    (&["whatsapp", "zap", "wa"], To::Types(&["whatsapp_link"])),
    (
        &["price", "preco", "valor", "value", "cost", "custo"],
        To::Types(&["currency"]),
    ),
    (
        &[
            "photo",
            "foto",
            "image",
            "imagem",
            "img",
            "picture",
            "thumbnail",
            "capa",
            "cover",
        ],
        To::Types(IMAGES),
    ),
    (
        &["phone", "telefone", "tel", "fone"],
        To::Types(&["telephone_link"]),
    ),
    (&["email", "mail"], To::Types(&["email_link"])),
    (
        &["title", "titulo", "name", "nome", "heading"],
        To::BuiltIn("name"),
    ),
    (
        &[
            "description",
            "descricao",
            "text",
            "texto",
            "excerpt",
            "resumo",
            "summary",
            "content",
            "conteudo",
            "body",
        ],
        To::Types(TEXT),
    ),
    (
        &["link", "url", "href", "permalink"],
        To::BuiltIn("permalink"),
    ),
    (&["date", "data"], To::BuiltIn("date")),
];

/// The folded words of a text: "Preço antigo", `preco-antigo` and `preco_antigo` alike.
fn words(text: &str) -> Vec<String> {
    slugify(text)
        .split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn holds(own: &[String], word: &str) -> bool {
    own.iter()
        .any(|w| w == word || w.strip_suffix('s') == Some(word))
}

/// The field of one of `types` sharing the most words with the variable, then of the better type.
fn field_of_types<'f>(own: &[String], fields: &'f [Field], types: &[&str]) -> Option<&'f str> {
    fields
        .iter()
        .filter_map(|f| {
            let rank = types.iter().position(|t| *t == f.kind)?;
            let shared = words(&format!("{} {}", f.name, f.slug))
                .iter()
                .filter(|w| own.contains(w))
                .count();
            Some((shared * types.len() + types.len() - rank, f.slug.as_str()))
        })
        // The first of equals wins, as in the editor.
        .fold(None, |best: Option<(usize, &str)>, c| match best {
            Some(b) if b.0 >= c.0 => Some(b),
            _ => Some(c),
        })
        .map(|(_, slug)| slug)
}

/// What a variable of type `kind` called `name` (labelled `label`) should show of a record.
pub fn field_for(name: &str, label: &str, kind: &str, fields: &[Field]) -> Option<String> {
    if let Some(same) = fields
        .iter()
        .find(|f| slugify(&f.slug) == slugify(name) || slugify(&f.name) == slugify(name))
    {
        return Some(same.slug.clone());
    }
    let own = words(&format!("{name} {label}"));
    for (rule_words, to) in RULES {
        if !rule_words.iter().any(|w| holds(&own, w)) {
            continue;
        }
        match to {
            To::BuiltIn(value) => return Some((*value).to_string()),
            To::Types(types) => {
                let types = if kind == "richtext" && *types == TEXT {
                    RICH
                } else {
                    *types
                };
                if let Some(slug) = field_of_types(&own, fields, types) {
                    return Some(slug.to_string());
                }
            }
        }
    }
    match kind {
        "image" => field_of_types(&own, fields, IMAGES),
        "richtext" => field_of_types(&own, fields, RICH),
        _ => None,
    }
    .map(str::to_string)
}

/// Whether a post binding names something the collection has.
fn fits(binding: &str, fields: &[Field]) -> bool {
    let slug = binding.strip_prefix("raw.").unwrap_or(binding);
    BUILT_IN.contains(&binding) || fields.iter().any(|f| f.slug == slug)
}

/// Points each definition's `postfield` at what the collection has: a binding that fits is kept,
/// another is guessed by `field_for`, and one nothing fits is dropped (the typed value shows).
pub fn bind_to_fields(defs: &mut [Value], fields: &[Field]) {
    for def in defs {
        let Some(binding) = def.get("postfield").and_then(Value::as_str) else {
            continue;
        };
        if fits(binding, fields) {
            continue;
        }
        let text = |key: &str| {
            def.get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        match field_for(&text("name"), &text("label"), &text("type"), fields) {
            Some(slug) => def["postfield"] = Value::String(slug),
            None => {
                if let Some(object) = def.as_object_mut() {
                    object.remove("postfield");
                }
            }
        }
    }
}

/// Whether the collection sells: a price or a WhatsApp field.
fn sells(fields: &[Field]) -> bool {
    fields
        .iter()
        .any(|f| f.kind == "currency" || f.kind == "whatsapp_link")
}

/// The starter blocks of a page of `collection_id`, or `None` when the library has none of them.
pub async fn starter_blocks(core: &Core, collection_id: CollectionId) -> Result<Option<Value>> {
    let fields = core.store.collection_fields(collection_id).await?;
    let wanted = if sells(&fields) { PRODUCT } else { POST };
    let library = core.store.library_blocks().await?;
    let mut blocks = Vec::new();
    for (i, uid) in wanted.iter().enumerate() {
        let Some(source) = library.iter().find(|b| b.uid == *uid) else {
            continue;
        };
        // A library block that does not parse (an administrator's edit) starts no page.
        let Ok((template, mut vars)) =
            vitrine_shared::blocks::split_x_vars(&source.content.template)
        else {
            continue;
        };
        bind_to_fields(&mut vars, &fields);
        blocks.push(json!({
            "uid": format!("b-start{i}"),
            "block_id": source.id,
            "name": source.content.name,
            "template": template,
            "css": source.content.css,
            "js": source.content.js,
            "vars": vars,
        }));
    }
    Ok((!blocks.is_empty()).then_some(Value::Array(blocks)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_shared::ids::FieldId;
    use vitrine_shared::store::Json;

    fn field(slug: &str, kind: &str, name: &str) -> Field {
        Field {
            id: FieldId(0),
            collection_id: CollectionId(1),
            name: name.into(),
            slug: slug.into(),
            kind: kind.into(),
            required: false,
            position: 0,
            options: Json(Value::Null),
            meta: Json(Value::Null),
        }
    }

    fn shop() -> Vec<Field> {
        vec![
            field("foto", "image", "Foto"),
            field("preco", "currency", "Preço"),
            field("preco-antigo", "currency", "Preço antigo"),
            field("zap", "whatsapp_link", "WhatsApp"),
            field("descricao", "wysiwyg", "Descrição"),
            field("resumo", "textarea", "Resumo"),
        ]
    }

    #[test]
    fn variables_find_the_fields_their_names_and_types_call_for() {
        let cases = [
            ("title", "", "text", Some("name")),
            ("photo", "Foto", "image", Some("foto")),
            ("cover_pic", "", "image", Some("foto")),
            ("price", "Preço", "text", Some("preco")),
            ("old_price", "Preço antigo", "text", Some("preco-antigo")),
            ("whatsapp", "", "link", Some("zap")),
            ("description", "Descrição", "richtext", Some("descricao")),
            ("excerpt", "Resumo", "textarea", Some("resumo")),
            ("link", "", "text", Some("permalink")),
            ("badge", "Selo", "text", None),
        ];
        for (name, label, kind, expected) in cases {
            assert_eq!(
                field_for(name, label, kind, &shop()).as_deref(),
                expected,
                "{name} ({label})"
            );
        }
    }

    #[test]
    fn bindings_that_fit_stay_others_are_guessed_or_dropped() {
        let mut defs = vec![
            json!({"name": "photo", "type": "image", "postfield": "image"}),
            json!({"name": "name", "type": "text", "postfield": "name"}),
            json!({"name": "price", "type": "text", "postfield": "raw.preco"}),
            json!({"name": "description", "type": "richtext", "postfield": "content"}),
            json!({"name": "note", "type": "text", "postfield": "observacao"}),
            json!({"name": "buy", "type": "link"}),
        ];
        bind_to_fields(&mut defs, &shop());
        let bindings: Vec<Option<&str>> = defs
            .iter()
            .map(|d| d.get("postfield").and_then(Value::as_str))
            .collect();
        assert_eq!(
            bindings,
            [
                Some("foto"),
                Some("name"),
                Some("raw.preco"),
                Some("descricao"),
                None,
                None
            ]
        );
    }

    #[test]
    fn a_collection_with_a_price_or_whatsapp_sells() {
        assert!(sells(&shop()));
        assert!(!sells(&[field("corpo", "wysiwyg", "Corpo")]));
    }
}
