//! Whose share of a pool every tenant shares a piece of work counts against.
//!
//! A pool (render workers, list-query slots, outbound fetches, ACME orders) is shared fairly
//! per *account*: one owner, or one business with all its members, which counts as one (a
//! business administrator who makes a hundred member accounts gets one share, not a hundred).
//! The platform's own work (the seeded library's thumbnails) has an account of its own.

use std::fmt;

use crate::ids::{AccountId, BusinessId};

/// An account, as the fair shares count it (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Account {
    /// An owner outside any business.
    User(AccountId),
    /// Every member of a business together.
    Business(BusinessId),
    /// The platform's own work, no tenant's.
    Platform,
}

impl Account {
    /// The account of a user who belongs to `business`, if any.
    pub fn of(user_id: AccountId, business_id: Option<BusinessId>) -> Account {
        match business_id {
            Some(b) => Account::Business(b),
            None => Account::User(user_id),
        }
    }
}

/// `u{id}`, `b{id}` or `platform`: the spelling the store's SQL uses for the same account
/// (`acme_orders.account`).
impl fmt::Display for Account {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Account::User(id) => write!(f, "u{id}"),
            Account::Business(id) => write!(f, "b{id}"),
            Account::Platform => f.write_str("platform"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_business_is_one_account_whoever_of_its_members_asks() {
        let (user, business) = (AccountId, BusinessId);
        assert_eq!(
            Account::of(user(7), Some(business(3))),
            Account::of(user(8), Some(business(3)))
        );
        assert_ne!(Account::of(user(7), None), Account::of(user(8), None));
        assert_ne!(
            Account::of(user(3), None),
            Account::of(user(9), Some(business(3)))
        );
        assert_eq!(Account::of(user(7), None).to_string(), "u7");
        assert_eq!(Account::of(user(7), Some(business(3))).to_string(), "b3");
    }
}
