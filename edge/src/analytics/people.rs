//! Each visitor thread's memory of the people it counted today: who they are to the site (the
//! site, the address and the user agent as sent) and what that makes them, the day's visitor
//! hash and device class.
//!
//! A visitor's hash is an HMAC-SHA256 of the site, the address and the user agent under the
//! day's salt (`docs/analytics.md`). Making it was half of what counting a returning person's
//! page cost (`benches/benches/analytics_page.rs`), and a person loads several pages, so each
//! shard keeps the last [`MAX_PEOPLE`] people it counted. They are found by a foldhash of the
//! three and then compared with them exactly, so two people whose foldhashes meet stay two.
//! The hash is a pure function of the three and the salt, and the memory is emptied whenever
//! the shard takes a new salt ([`People::forget`]), so a kept hash is always the one the HMAC
//! would make: never carried into tomorrow, where the same person must not be recognised.
//!
//! **Bounded.** At most [`MAX_PEOPLE`] people whose user agents are at most
//! [`MAX_AGENT_LEN`] bytes (the others are hashed every time), some 200 KB per visitor thread
//! at worst; when full it is emptied and starts again, so a visitor who sends a new user agent
//! on every request costs the others on that thread what each page cost without it, no more.
//! Bots are never kept: their pages are counted from [`super::agents`]' verdicts alone.
//!
//! hashbrown's `HashTable` keeps entries under a hash of our choosing, checked by a closure:
//! exactly the "find by a cheap hash, then compare" this needs, without a second key copy.

use std::{hash::BuildHasher, net::IpAddr};

use hashbrown::HashTable;
use vitrine_shared::ids::ProjectId;

use super::agents::MAX_AGENT_LEN;

/// The most people a shard keeps.
pub const MAX_PEOPLE: usize = 512;

/// What a person counted today is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Person {
    /// The day's visitor hash (`Salt::visitor`).
    pub visitor: i64,
    /// `mobile`, `tablet` or `desktop`.
    pub device: &'static str,
}

/// Who sent a page request: the site, the visitor's address and their user agent.
pub type Who<'a> = (ProjectId, IpAddr, &'a [u8]);

struct Kept {
    hash: u64,
    project: ProjectId,
    client: IpAddr,
    user_agent: Box<[u8]>,
    person: Person,
}

/// A shard's people (see the module docs).
#[derive(Default)]
pub struct People {
    kept: HashTable<Kept>,
    hasher: foldhash::fast::RandomState,
}

impl People {
    /// The person `who` is: kept, or made by `make` (`None`: a bot, not kept).
    pub fn person(
        &mut self,
        who: Who<'_>,
        make: impl FnOnce() -> Option<Person>,
    ) -> Option<Person> {
        let (project, client, user_agent) = who;
        let hash = self.hasher.hash_one(who);
        let same =
            |k: &Kept| k.project == project && k.client == client && *k.user_agent == *user_agent;
        if let Some(k) = self.kept.find(hash, same) {
            return Some(k.person);
        }
        let person = make()?;
        if user_agent.len() <= MAX_AGENT_LEN {
            if self.kept.len() >= MAX_PEOPLE {
                self.kept.clear();
            }
            let kept = Kept {
                hash,
                project,
                client,
                user_agent: user_agent.into(),
                person,
            };
            self.kept.insert_unique(hash, kept, |k| k.hash);
        }
        Some(person)
    }

    /// Forgets everyone (the day's salt changed).
    pub fn forget(&mut self) {
        self.kept.clear();
    }

    /// How many people are kept.
    #[cfg(test)]
    pub fn kept(&self) -> usize {
        self.kept.len()
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    const PHONE: &[u8] = b"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148";

    fn made(visitor: i64) -> impl FnOnce() -> Option<Person> {
        move || {
            Some(Person {
                visitor,
                device: "mobile",
            })
        }
    }

    #[test]
    fn a_kept_person_is_found_only_by_the_same_site_address_and_user_agent() {
        let mut people = People::default();
        let (site, ip) = (ProjectId::new(1), IpAddr::V4(Ipv4Addr::new(203, 0, 113, 7)));
        assert_eq!(
            people.person((site, ip, PHONE), made(1)).unwrap().visitor,
            1
        );
        // Found again: `make` is not asked.
        let again = people.person((site, ip, PHONE), || panic!("made again"));
        assert_eq!(again.unwrap().visitor, 1);
        // Any of the three different is someone else.
        let other_ip = IpAddr::V4(Ipv4Addr::new(203, 0, 113, 8));
        assert_eq!(
            people
                .person((site, other_ip, PHONE), made(2))
                .unwrap()
                .visitor,
            2
        );
        assert_eq!(
            people
                .person((ProjectId::new(2), ip, PHONE), made(3))
                .unwrap()
                .visitor,
            3
        );
        assert_eq!(
            people
                .person((site, ip, b"Mozilla/5.0"), made(4))
                .unwrap()
                .visitor,
            4
        );
        assert_eq!(people.kept(), 4);
        // A bot is not kept.
        assert_eq!(people.person((site, ip, b"Googlebot"), || None), None);
        assert_eq!(people.kept(), 4);
        // A new salt forgets everyone.
        people.forget();
        assert_eq!(
            people.person((site, ip, PHONE), made(5)).unwrap().visitor,
            5
        );
    }

    #[test]
    fn a_flood_of_new_people_stays_within_the_bound() {
        let mut people = People::default();
        let site = ProjectId::new(1);
        for i in 0..3 * MAX_PEOPLE as u32 {
            let ip = IpAddr::V4(Ipv4Addr::from(i));
            let got = people.person((site, ip, PHONE), made(i64::from(i)));
            assert_eq!(got.unwrap().visitor, i64::from(i));
            assert!(people.kept() <= MAX_PEOPLE);
        }
        // Too long to keep: made every time.
        let long = [b'a'; MAX_AGENT_LEN + 1];
        let ip = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let before = people.kept();
        people.person((site, ip, &long), made(9));
        assert_eq!(people.kept(), before);
        assert_eq!(
            people.person((site, ip, &long), made(10)).unwrap().visitor,
            10
        );
    }
}
