//! Closed sets of values that are stored and sent as a short text code (a currency's ISO 4217
//! code, a plan's name): `text_code!` gives such an enum its code both ways (`code`, `FromStr`,
//! `Display`), serde as that string, sqlx as a TEXT column of either database, and OpenAPI as a
//! named string schema with the codes as its `enum`. A code the enum does not know is an error
//! everywhere, never a panic: a request's is refused by deserialising, the database's fails the
//! query.

/// A code the enum does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} {code:?}")]
pub struct UnknownCode {
    /// What the enum is (`currency`, `plan`).
    pub kind: &'static str,
    pub code: String,
}

/// `text_code!(Type, "kind", [Variant => "code", …])`: the enum's codes, in order, and the
/// traits that read and write them.
macro_rules! text_code {
    ($ty:ident, $kind:literal, [$($variant:ident => $code:literal),+ $(,)?]) => {
        impl $ty {
            /// Every value, in order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The value's code, as stored and sent.
            pub const fn code(self) -> &'static str {
                match self {
                    $($ty::$variant => $code),+
                }
            }

            /// The value with this exact code.
            pub fn from_code(code: &str) -> Option<$ty> {
                match code {
                    $($code => Some($ty::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $crate::text_code::UnknownCode;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $ty::from_code(s).ok_or_else(|| $crate::text_code::UnknownCode {
                    kind: $kind,
                    code: s.to_owned(),
                })
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.code())
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.code())
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let code = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                code.parse().map_err(serde::de::Error::custom)
            }
        }

        impl utoipa::PartialSchema for $ty {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some([$($code),+]))
                    .into()
            }
        }

        /// A named schema (`#/components/schemas/<Type>`): the document lists the codes, and
        /// the dashboard's generated types read them as a union of those strings.
        impl utoipa::ToSchema for $ty {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(stringify!($ty))
            }
        }

        impl<DB: sqlx::Database> sqlx::Type<DB> for $ty
        where
            str: sqlx::Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <str as sqlx::Type<DB>>::type_info()
            }

            fn compatible(ty: &DB::TypeInfo) -> bool {
                <str as sqlx::Type<DB>>::compatible(ty)
            }
        }

        impl<'q, DB: sqlx::Database> sqlx::Encode<'q, DB> for $ty
        where
            &'static str: sqlx::Encode<'q, DB>,
        {
            fn encode_by_ref(
                &self,
                buf: &mut DB::ArgumentBuffer,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                self.code().encode_by_ref(buf)
            }
        }

        impl<'r, DB: sqlx::Database> sqlx::Decode<'r, DB> for $ty
        where
            &'r str: sqlx::Decode<'r, DB>,
        {
            fn decode(value: DB::ValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                Ok(<&'r str as sqlx::Decode<'r, DB>>::decode(value)?.parse::<$ty>()?)
            }
        }
    };
}

pub(crate) use text_code;
