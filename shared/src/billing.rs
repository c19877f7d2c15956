//! Plans and billing months. Prices are [`Money`]: integer minor units (centavos, cents) with
//! their currency; nothing here uses floating point.

use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Utc};
use serde::Serialize;

use crate::{
    money::{Currency, Money, serialize_minor},
    text_code::text_code,
};

/// The plans an account (or a business) is on (spec 2 §9), stored and sent as their code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Plan {
    /// Básico in BRL, Starter in USD.
    Basic,
    /// Agência in BRL, Agency in USD.
    Agency,
}

text_code!(Plan, "plan", [Basic => "basic", Agency => "agency"]);

/// A plan's prices in one currency (spec 2 §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PlanPrice {
    pub plan: Plan,
    pub currency: Currency,
    /// The plan's name in that market: Básico/Agência in BRL, Starter/Agency in USD.
    pub name: &'static str,
    /// Monthly fee, minor units.
    #[serde(serialize_with = "serialize_minor")]
    #[schema(value_type = i64)]
    pub monthly_fee: Money,
    /// Per published website per month, minor units.
    #[serde(serialize_with = "serialize_minor")]
    #[schema(value_type = i64)]
    pub per_site: Money,
    /// Support channels: `email`, `chat`, `whatsapp`.
    #[schema(value_type = Vec<String>)]
    pub support: &'static [&'static str],
}

const BRL: Currency = Currency::Brl;
const USD: Currency = Currency::Usd;

/// Every plan in every currency.
pub const PLANS: &[PlanPrice] = &[
    PlanPrice {
        plan: Plan::Basic,
        currency: BRL,
        name: "Básico",
        monthly_fee: Money::new(0, BRL),
        per_site: Money::new(3000, BRL),
        support: &["email"],
    },
    PlanPrice {
        plan: Plan::Agency,
        currency: BRL,
        name: "Agência",
        monthly_fee: Money::new(37000, BRL),
        per_site: Money::new(2000, BRL),
        support: &["email", "chat", "whatsapp"],
    },
    PlanPrice {
        plan: Plan::Basic,
        currency: USD,
        name: "Starter",
        monthly_fee: Money::new(0, USD),
        per_site: Money::new(700, USD),
        support: &["email"],
    },
    PlanPrice {
        plan: Plan::Agency,
        currency: USD,
        name: "Agency",
        monthly_fee: Money::new(7000, USD),
        per_site: Money::new(500, USD),
        support: &["email", "chat"],
    },
];

/// The prices of `plan` in `currency`.
pub fn price(plan: Plan, currency: Currency) -> Option<&'static PlanPrice> {
    PLANS
        .iter()
        .find(|p| p.plan == plan && p.currency == currency)
}

/// A calendar month (UTC), as `yyyy-mm` in the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Month(NaiveDate);

impl Month {
    /// `yyyy-mm`, years 2000–2999.
    pub fn parse(s: &str) -> Option<Month> {
        let (y, m) = s.split_once('-')?;
        if y.len() != 4 || m.len() != 2 || !y.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let (y, m): (i32, u32) = (y.parse().ok()?, m.parse().ok()?);
        if !(2000..3000).contains(&y) {
            return None;
        }
        NaiveDate::from_ymd_opt(y, m, 1).map(Month)
    }

    pub fn of(t: DateTime<Utc>) -> Month {
        Month(NaiveDate::from_ymd_opt(t.year(), t.month(), 1).expect("first of a month"))
    }

    pub fn previous(self) -> Month {
        Month(self.0 - chrono::Months::new(1))
    }

    pub fn next(self) -> Month {
        Month(self.0 + chrono::Months::new(1))
    }

    /// The first instant of the month.
    pub fn start(self) -> DateTime<Utc> {
        Utc.from_utc_datetime(&self.0.and_hms_opt(0, 0, 0).expect("midnight"))
    }

    /// The first instant of the next month.
    pub fn end(self) -> DateTime<Utc> {
        self.next().start()
    }

    /// Day `dd` of the month, as the instants it spans.
    pub fn day(self, dd: &str) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
        if dd.len() != 2 || !dd.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let date = self.0.with_day(dd.parse().ok()?)?;
        let start = Utc.from_utc_datetime(&date.and_hms_opt(0, 0, 0)?);
        Some((start, start + chrono::Duration::days(1)))
    }
}

impl std::fmt::Display for Month {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.format("%Y-%m"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_parse_strictly_and_step() {
        let m = Month::parse("2026-11").unwrap();
        assert_eq!(m.to_string(), "2026-11");
        assert_eq!(m.next().to_string(), "2026-12");
        assert_eq!(m.next().next().to_string(), "2027-01");
        assert_eq!(
            Month::parse("2026-01").unwrap().previous().to_string(),
            "2025-12"
        );
        assert_eq!(m.end() - m.start(), chrono::Duration::days(30));
        for bad in [
            "2026-13",
            "2026-00",
            "26-11",
            "2026-1",
            "2026/11",
            "abcd-ef",
            "1999-12",
            "2026-11-01",
            "+026-11",
        ] {
            assert!(Month::parse(bad).is_none(), "{bad}");
        }
        assert!(m.day("30").is_some());
        assert!(m.day("31").is_none(), "November has 30 days");
        assert!(m.day("1").is_none());
        assert!(Month::parse("2028-02").unwrap().day("29").is_some());
    }

    #[test]
    fn plans_have_the_specified_prices() {
        let p = |plan: &str, cur: &str| {
            price(plan.parse().ok()?, cur.parse().ok()?)
                .map(|p| (p.name, p.monthly_fee.minor(), p.per_site.minor()))
        };
        assert_eq!(p("basic", "BRL"), Some(("Básico", 0, 3000)));
        assert_eq!(p("agency", "BRL"), Some(("Agência", 37000, 2000)));
        assert_eq!(p("basic", "USD"), Some(("Starter", 0, 700)));
        assert_eq!(p("agency", "USD"), Some(("Agency", 7000, 500)));
        assert_eq!(p("basic", "EUR"), None);
        for &plan in Plan::ALL {
            for &currency in Currency::ALL {
                assert!(price(plan, currency).is_some(), "{plan} in {currency}");
            }
        }
    }

    #[test]
    fn plans_are_their_codes_and_an_unknown_one_is_refused() {
        assert_eq!(Plan::ALL, [Plan::Basic, Plan::Agency]);
        for &plan in Plan::ALL {
            assert_eq!(plan.code().parse::<Plan>(), Ok(plan));
            assert_eq!(serde_json::to_value(plan).unwrap(), plan.code());
            assert_eq!(
                serde_json::from_value::<Plan>(plan.code().into()).unwrap(),
                plan
            );
        }
        for bad in ["whatever", "Agency", "", " basic"] {
            assert!(bad.parse::<Plan>().is_err(), "{bad:?}");
            assert!(serde_json::from_value::<Plan>(bad.into()).is_err());
        }
    }

    #[test]
    fn prices_are_in_their_plans_currency_and_keep_their_json() {
        for p in PLANS {
            assert_eq!(p.monthly_fee.currency(), p.currency, "{}", p.name);
            assert_eq!(p.per_site.currency(), p.currency, "{}", p.name);
        }
        let agency = price(Plan::Agency, Currency::Brl).unwrap();
        assert_eq!(
            serde_json::to_value(agency).unwrap(),
            serde_json::json!({
                "plan": "agency", "currency": "BRL", "name": "Agência", "monthly_fee": 37000,
                "per_site": 2000, "support": ["email", "chat", "whatsapp"],
            })
        );
    }
}
