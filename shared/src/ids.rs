//! Typed ids: one type per table whose rows the product names by number, so that an id of one
//! kind cannot be passed where another is wanted (a page's id as a project's, say). Each is a
//! `Copy` newtype over the `i64` the databases store, and is that number everywhere outside
//! Rust: serde (`transparent`: JSON and path segments read and write the bare number), sqlx
//! (`transparent`: binds and decodes as `i64` on SQLite and PostgreSQL, arrays included),
//! `Display` and `FromStr` (the decimal number), and the OpenAPI schema (`integer`, `int64`).
//!
//! utoipa's derive refers to a field's type by name unless it is a primitive, so a schema's
//! field keeps `#[schema(value_type = i64)]` (or `Option<i64>`, `Vec<i64>`): the document then
//! shows the same integer it always has. Where a boundary needs the raw number (a metrics
//! label, arithmetic, a SQL helper that takes `i64`), `.get()` says so explicitly.
//!
//! Every table whose rows are named by number across a boundary (a path, a request body, a
//! store call) has its type here. Two kinds of numeric id stay bare `i64`, on purpose:
//! - global sections (`global_sections`): a project's header and footer are named by the
//!   project and their kind (`header`, `footer`), never by id; no statement reads the column,
//!   so a type for it would have no user;
//! - the queues and logs (`outbox`, `conversion_events`, `changes`, `publications`,
//!   `audit_log`, `transactions`, `acme_orders`): their ids are handles and cursors that a
//!   worker or reader gets from the store and hands straight back to it (a claimed mail marked
//!   sent, the change feed's position), never taken from a client nor kept beside an id of
//!   another kind; the queues' shared statements take the id of whichever queue they serve.
//!
//! Tables keyed by text (`sessions`, `certificates`, `edge_nodes`, `uploads`, …) have no
//! number to type.

use std::{fmt, num::ParseIntError, str::FromStr};

use serde::{Deserialize, Serialize};

/// Defines each id type (see the module docs).
macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident;)+) => {$(
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
            sqlx::Type,
        )]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(pub i64);

        impl $name {
            /// The id with this number.
            pub const fn new(id: i64) -> Self {
                Self(id)
            }

            /// The number the database stores.
            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl FromStr for $name {
            type Err = ParseIntError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.parse().map(Self)
            }
        }

        /// The same schema as `i64`'s: `integer`, `int64`.
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                <i64 as utoipa::PartialSchema>::schema()
            }
        }

        impl utoipa::ToSchema for $name {}
    )+};
}

ids! {
    /// A user's account (`users`).
    AccountId;
    /// A business, whose members share an account (`businesses`).
    BusinessId;
    /// A project (`projects`).
    ProjectId;
    /// A page of a project (`pages`).
    PageId;
    /// A collection of a project (`collections`; the API's "table").
    CollectionId;
    /// A field of a collection (`fields`).
    FieldId;
    /// A post of a collection (`posts`).
    PostId;
    /// A deploy of a project (`deploys`).
    DeployId;
    /// A redirect rule of a project (`redirects`).
    RedirectId;
    /// A form submission received for a project (`form_history`).
    SubmissionId;
    /// A site template, or theme (`templates`).
    TemplateId;
    /// A block of the platform's library (`blocks`).
    LibraryBlockId;
    /// A category of the platform's library (`block_categories`).
    BlockCategoryId;
    /// A block of a business's own library (`business_blocks`).
    BusinessBlockId;
    /// One of a user's own blocks (`my_blocks`).
    MyBlockId;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_its_number_in_json_text_and_the_openapi_schema() {
        let id = ProjectId::new(42);
        assert_eq!(serde_json::to_string(&id).unwrap(), "42");
        assert_eq!(serde_json::from_str::<ProjectId>("42").unwrap(), id);
        assert_eq!(
            serde_json::to_string(&Some(PageId(-7))).unwrap(),
            serde_json::to_string(&Some(-7_i64)).unwrap()
        );
        assert!(serde_json::from_str::<PostId>("\"42\"").is_err());
        assert!(serde_json::from_str::<PostId>("4.2").is_err());

        assert_eq!(id.to_string(), "42");
        assert_eq!("42".parse::<ProjectId>(), Ok(id));
        assert_eq!(
            i64::MAX
                .to_string()
                .parse::<CollectionId>()
                .map(CollectionId::get),
            Ok(i64::MAX)
        );
        assert!("4x".parse::<PostId>().is_err());
        assert!("".parse::<AccountId>().is_err());

        let schema = |s| serde_json::to_value(s).unwrap();
        assert_eq!(
            schema(<ProjectId as utoipa::PartialSchema>::schema()),
            schema(<i64 as utoipa::PartialSchema>::schema())
        );
        assert_eq!(
            schema(<PageId as utoipa::PartialSchema>::schema()),
            serde_json::json!({"type": "integer", "format": "int64"})
        );
    }

    #[test]
    fn ids_in_a_struct_round_trip_as_numbers() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Row {
            id: PostId,
            collection_id: CollectionId,
            owner: Option<AccountId>,
            pages: Vec<PageId>,
        }
        let row = Row {
            id: PostId(3),
            collection_id: CollectionId(9),
            owner: None,
            pages: vec![PageId(1), PageId(2)],
        };
        let json = serde_json::to_string(&row).unwrap();
        assert_eq!(
            json,
            r#"{"id":3,"collection_id":9,"owner":null,"pages":[1,2]}"#
        );
        assert_eq!(serde_json::from_str::<Row>(&json).unwrap(), row);
    }
}
