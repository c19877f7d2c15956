//! Each visitor thread's memory of the user agents it has told apart: a bot or a person, and
//! the device class ([`classify`]).
//!
//! isbot matches a user agent against some 350 patterns in one regular expression, after
//! lowering its case into a new string: most of what counting a page cost (measured by
//! `benches/benches/analytics_page.rs`). Real traffic repeats a few hundred user agents, so
//! each shard keeps the verdicts of the last [`MAX_AGENTS`] it saw, keyed by the exact bytes
//! (never a hash of them, which two user agents could share). The verdict is a pure function
//! of the user agent, so a kept one is always right.
//!
//! **Bounded.** At most [`MAX_AGENTS`] user agents of at most [`MAX_AGENT_LEN`] bytes (longer
//! ones are classified every time), about 200 KB per visitor thread at worst; when full the
//! memory is emptied and starts again. A visitor who sends a new user agent on every request
//! empties it for the others on that thread, who then cost what every page cost before, no
//! more. The table is hashed with foldhash (the hasher hashbrown itself uses, seeded per
//! table): a long key costs a few nanoseconds instead of std's SipHash's hundred, and the cap
//! bounds what colliding keys could cost.

use std::collections::HashMap;

use vitrine_shared::analytics::classify;

/// The most user agents a shard keeps verdicts of.
pub const MAX_AGENTS: usize = 512;
/// The longest user agent whose verdict is kept.
pub const MAX_AGENT_LEN: usize = 320;

/// What a user agent is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub bot: bool,
    /// `mobile`, `tablet` or `desktop` ([`classify::device`]).
    pub device: &'static str,
}

/// A shard's kept verdicts (see the module docs).
#[derive(Default)]
pub struct Agents {
    seen: HashMap<Box<[u8]>, Verdict, foldhash::fast::RandomState>,
}

impl Agents {
    /// The verdict on `user_agent`, kept or made.
    pub fn verdict(&mut self, user_agent: &[u8]) -> Verdict {
        if let Some(v) = self.seen.get(user_agent) {
            return *v;
        }
        let text = String::from_utf8_lossy(user_agent);
        let v = Verdict {
            bot: classify::is_bot(&text),
            device: classify::device(&text),
        };
        if user_agent.len() <= MAX_AGENT_LEN {
            if self.seen.len() >= MAX_AGENTS {
                self.seen.clear();
            }
            self.seen.insert(user_agent.into(), v);
        }
        v
    }

    /// How many verdicts are kept.
    #[cfg(test)]
    fn kept(&self) -> usize {
        self.seen.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHONE: &[u8] = b"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148";

    #[test]
    fn kept_verdicts_are_the_classifiers_and_stay_bounded() {
        let mut agents = Agents::default();
        let fresh = |ua: &[u8]| {
            let t = String::from_utf8_lossy(ua);
            Verdict {
                bot: classify::is_bot(&t),
                device: classify::device(&t),
            }
        };
        let bot = classify::NAMED_BOTS[0].as_bytes();
        for _ in 0..3 {
            for ua in [PHONE, bot, b"" as &[u8], b"Mozilla/5.0 (iPad; CPU OS 17_0)"] {
                assert_eq!(agents.verdict(ua), fresh(ua));
            }
        }
        assert!(agents.verdict(bot).bot);
        assert_eq!(agents.verdict(PHONE).device, "mobile");
        assert_eq!(agents.kept(), 4);
        // A flood of new user agents never holds more than the cap.
        for i in 0..3 * MAX_AGENTS {
            let ua = format!("Mozilla/5.0 (X11; Linux) Flood/{i}");
            assert_eq!(agents.verdict(ua.as_bytes()), fresh(ua.as_bytes()));
            assert!(agents.kept() <= MAX_AGENTS);
        }
        // Too long to keep, still classified.
        let long = [b'a'; MAX_AGENT_LEN + 1];
        let before = agents.kept();
        assert_eq!(agents.verdict(&long), fresh(&long));
        assert_eq!(agents.kept(), before);
    }
}
