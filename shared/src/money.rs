//! Money: integer minor units (centavos, cents) with the currency they count, never a bare
//! number and never floating point. Amounts add and subtract only within one currency, and an
//! overflow is an error rather than a wrap or a panic.
//!
//! The API keeps its shapes: a response writes an amount's minor units and its currency code
//! as the separate fields it always had (`amount`/`currency`, `monthly_fee`, `total`), mapped
//! at the boundary. A currency field of a collection (a product's price) is not `Money`: it
//! carries a display symbol and format, not a currency code (`crate::fields::format_currency`).

use sqlx::Row;

use crate::text_code::text_code;

/// The currencies accounts are billed in (ISO 4217).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Currency {
    /// Brazilian real.
    Brl,
    /// US dollar.
    Usd,
}

text_code!(Currency, "currency", [Brl => "BRL", Usd => "USD"]);

/// An amount in minor units of its currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Money {
    minor: i64,
    currency: Currency,
}

/// Why two amounts do not combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("{0} and {1} amounts do not combine")]
    CurrencyMismatch(Currency, Currency),
    #[error("the amount is out of range")]
    Overflow,
}

impl Money {
    pub const fn new(minor: i64, currency: Currency) -> Money {
        Money { minor, currency }
    }

    pub const fn zero(currency: Currency) -> Money {
        Money::new(0, currency)
    }

    /// Minor units: centavos, cents.
    pub const fn minor(self) -> i64 {
        self.minor
    }

    pub const fn currency(self) -> Currency {
        self.currency
    }

    pub const fn is_positive(self) -> bool {
        self.minor > 0
    }

    fn same_currency(self, other: Money) -> Result<Currency, MoneyError> {
        if self.currency == other.currency {
            Ok(self.currency)
        } else {
            Err(MoneyError::CurrencyMismatch(self.currency, other.currency))
        }
    }

    pub fn checked_add(self, other: Money) -> Result<Money, MoneyError> {
        let currency = self.same_currency(other)?;
        let minor = self.minor.checked_add(other.minor);
        Ok(Money::new(minor.ok_or(MoneyError::Overflow)?, currency))
    }

    pub fn checked_sub(self, other: Money) -> Result<Money, MoneyError> {
        let currency = self.same_currency(other)?;
        let minor = self.minor.checked_sub(other.minor);
        Ok(Money::new(minor.ok_or(MoneyError::Overflow)?, currency))
    }

    /// The opposite amount: a charge of a price.
    pub fn checked_neg(self) -> Result<Money, MoneyError> {
        let minor = self.minor.checked_neg().ok_or(MoneyError::Overflow)?;
        Ok(Money::new(minor, self.currency))
    }

    /// The sum of `amounts`, all in `currency` (zero when there are none).
    pub fn sum(
        currency: Currency,
        amounts: impl IntoIterator<Item = Money>,
    ) -> Result<Money, MoneyError> {
        amounts
            .into_iter()
            .try_fold(Money::zero(currency), Money::checked_add)
    }
}

/// A row's `amount` (minor units) and `currency` columns, as the ledger stores them.
impl<'r, R: Row> sqlx::FromRow<'r, R> for Money
where
    &'r str: sqlx::ColumnIndex<R>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    Currency: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    fn from_row(row: &'r R) -> Result<Self, sqlx::Error> {
        Ok(Money::new(row.try_get("amount")?, row.try_get("currency")?))
    }
}

/// An amount's minor units alone, for a response that writes the currency beside it
/// (`#[serde(serialize_with = "…")]`).
pub fn serialize_minor<S: serde::Serializer>(m: &Money, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_i64(m.minor)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BRL: Currency = Currency::Brl;
    const USD: Currency = Currency::Usd;

    #[test]
    fn amounts_combine_within_one_currency() {
        let a = Money::new(3000, BRL);
        assert_eq!(
            a.checked_add(Money::new(-500, BRL)),
            Ok(Money::new(2500, BRL))
        );
        assert_eq!(
            a.checked_sub(Money::new(4000, BRL)),
            Ok(Money::new(-1000, BRL))
        );
        assert_eq!(a.checked_neg(), Ok(Money::new(-3000, BRL)));
        let all = [a, Money::new(20, BRL), Money::new(-1, BRL)];
        assert_eq!(Money::sum(BRL, all), Ok(Money::new(3019, BRL)));
        assert_eq!(Money::sum(USD, []), Ok(Money::zero(USD)));
    }

    #[test]
    fn different_currencies_are_refused() {
        let (brl, usd) = (Money::new(3000, BRL), Money::new(700, USD));
        let mismatch = Err(MoneyError::CurrencyMismatch(BRL, USD));
        assert_eq!(brl.checked_add(usd), mismatch);
        assert_eq!(brl.checked_sub(usd), mismatch);
        assert_eq!(
            usd.checked_add(brl),
            Err(MoneyError::CurrencyMismatch(USD, BRL))
        );
        assert_eq!(Money::sum(BRL, [brl, usd, brl]), mismatch);
        assert_eq!(
            Money::sum(USD, [brl]),
            Err(MoneyError::CurrencyMismatch(USD, BRL))
        );
    }

    #[test]
    fn overflow_is_refused_not_wrapped() {
        let max = Money::new(i64::MAX, USD);
        let min = Money::new(i64::MIN, USD);
        assert_eq!(
            max.checked_add(Money::new(1, USD)),
            Err(MoneyError::Overflow)
        );
        assert_eq!(
            min.checked_sub(Money::new(1, USD)),
            Err(MoneyError::Overflow)
        );
        assert_eq!(min.checked_neg(), Err(MoneyError::Overflow));
        assert_eq!(Money::sum(USD, [max, max]), Err(MoneyError::Overflow));
        assert_eq!(
            max.checked_sub(Money::new(1, USD)),
            Ok(Money::new(i64::MAX - 1, USD))
        );
    }

    #[test]
    fn currencies_are_their_iso_codes_both_ways() {
        for &c in Currency::ALL {
            assert_eq!(c.code().parse::<Currency>(), Ok(c));
            assert_eq!(serde_json::to_value(c).unwrap(), c.code());
            assert_eq!(
                serde_json::from_value::<Currency>(c.code().into()).unwrap(),
                c
            );
        }
        assert_eq!(Currency::ALL, [BRL, USD]);
        assert_eq!(BRL.to_string(), "BRL");
        for bad in ["EUR", "brl", "", "BRL "] {
            assert!(bad.parse::<Currency>().is_err(), "{bad:?}");
            assert!(serde_json::from_value::<Currency>(bad.into()).is_err());
        }
    }
}
