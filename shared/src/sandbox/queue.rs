//! The render workers' fair queue: who gets the next free worker.
//!
//! A plain semaphore serves renders first come, first served, so one account that asks for a
//! thousand renders (a tenant's collection page over thousands of posts, requested on 32
//! connections) puts every other tenant's render behind all of them. Here every account (a
//! business counts as one, [`Account`]) has its own line, and a freed worker goes to:
//!
//! 1. an urgent render (a publish) before any other, so editor and visitor traffic can never
//!    hold a publish up by more than one render;
//! 2. else the account with the fewest renders running, so an account that has none running
//!    is served next, whatever another account's backlog: one account's backlog delays
//!    another's render by at most one render's time (the one that frees the worker);
//! 3. among those, the longest-waiting render.
//!
//! And an account never holds more than [`Limits::per_account`] workers at once, nor more than
//! [`Limits::waiting_per_account`] renders waiting (more are refused at once), so no account
//! can fill the workers or the queue. It is the scheduling Cloudflare and Fly give tenants
//! with isolates and cgroups, done with one lock and a scan of the accounts that have work:
//! no crate offers keyed fair queueing with per-key caps (tokio's semaphore is FIFO, governor
//! limits rates, not concurrency).
//!
//! A slot is given back when dropped, and a waiter that gives up (its bound passed, or its
//! visitor went away) leaves the line at once.

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex},
    time::Duration,
};

use tokio::sync::oneshot;

use crate::account::Account;

/// How many renders run at once, and each account's share of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Workers of the process.
    pub workers: usize,
    /// Workers one account may hold at once.
    pub per_account: usize,
    /// Renders one account may have waiting; more are refused at once.
    pub waiting_per_account: usize,
}

/// Why no worker was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The account already has its share of renders waiting.
    LineFull,
    /// No worker came free for this render within its bound.
    Waited,
}

/// The fair queue (see the module docs).
pub struct FairQueue {
    state: Arc<Mutex<State>>,
}

struct State {
    limits: Limits,
    running: usize,
    /// Accounts with renders running or waiting (and no others).
    accounts: HashMap<Account, Line>,
    next_ticket: u64,
}

#[derive(Default)]
struct Line {
    running: usize,
    waiting: VecDeque<Waiter>,
}

struct Waiter {
    ticket: u64,
    urgent: bool,
    grant: oneshot::Sender<Slot>,
}

/// A worker held for one render; given back when dropped.
pub struct Slot {
    state: Arc<Mutex<State>>,
    account: Account,
}

/// Removes a waiter from its line if it is still there when the wait ends, however it ends.
struct Waiting<'a> {
    state: &'a Mutex<State>,
    account: Account,
    ticket: u64,
}

impl FairQueue {
    pub fn new(limits: Limits) -> FairQueue {
        let limits = Limits {
            workers: limits.workers.max(1),
            per_account: limits.per_account.clamp(1, limits.workers.max(1)),
            waiting_per_account: limits.waiting_per_account.max(1),
        };
        FairQueue {
            state: Arc::new(Mutex::new(State {
                limits,
                running: 0,
                accounts: HashMap::new(),
                next_ticket: 0,
            })),
        }
    }

    pub fn limits(&self) -> Limits {
        self.lock().limits
    }

    /// Renders running and waiting now, in all.
    pub fn load(&self) -> (usize, usize) {
        let s = self.lock();
        let waiting = s.accounts.values().map(|l| l.waiting.len()).sum();
        (s.running, waiting)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("render queue lock")
    }

    /// A worker for one render of `account`, within `within`; `urgent` goes before every
    /// render that is not (a publish).
    pub async fn acquire(
        &self,
        account: Account,
        urgent: bool,
        within: Duration,
    ) -> Result<Slot, Refused> {
        let (rx, waiting) = {
            let mut s = self.lock();
            let cap = s.limits.waiting_per_account;
            let ticket = s.next_ticket;
            s.next_ticket += 1;
            let line = s.accounts.entry(account).or_default();
            if line.waiting.len() >= cap {
                return Err(Refused::LineFull);
            }
            let (grant, rx) = oneshot::channel();
            line.waiting.push_back(Waiter {
                ticket,
                urgent,
                grant,
            });
            let grants = s.dispatch(&self.state);
            drop(s);
            hand_out(grants);
            let waiting = Waiting {
                state: &self.state,
                account,
                ticket,
            };
            (rx, waiting)
        };
        let slot = tokio::time::timeout(within, rx).await;
        drop(waiting);
        match slot {
            Ok(Ok(slot)) => Ok(slot),
            // The sender is only dropped unsent when the wait was given up.
            _ => Err(Refused::Waited),
        }
    }
}

impl State {
    /// Gives free workers to the waiters the rules choose (see the module docs); the slots
    /// are sent once the lock is released ([`hand_out`]).
    fn dispatch(&mut self, state: &Arc<Mutex<State>>) -> Vec<(oneshot::Sender<Slot>, Slot)> {
        let mut grants = Vec::new();
        while self.running < self.limits.workers {
            let per_account = self.limits.per_account;
            let next = self
                .accounts
                .iter()
                .filter(|(_, line)| line.running < per_account)
                .filter_map(|(account, line)| {
                    let first = line.waiting.front()?;
                    Some(((!first.urgent, line.running, first.ticket), *account))
                })
                .min();
            let Some((_, account)) = next else { break };
            let line = self.accounts.get_mut(&account).expect("chosen line");
            let waiter = line.waiting.pop_front().expect("chosen waiter");
            if waiter.grant.is_closed() {
                // Gave up; its guard finds it gone.
                self.forget_if_idle(account);
                continue;
            }
            line.running += 1;
            self.running += 1;
            grants.push((
                waiter.grant,
                Slot {
                    state: state.clone(),
                    account,
                },
            ));
        }
        grants
    }

    fn forget_if_idle(&mut self, account: Account) {
        if self
            .accounts
            .get(&account)
            .is_some_and(|l| l.running == 0 && l.waiting.is_empty())
        {
            self.accounts.remove(&account);
        }
    }
}

/// Sends each grant; a waiter that gave up meanwhile drops its slot, which frees it again.
fn hand_out(grants: Vec<(oneshot::Sender<Slot>, Slot)>) {
    for (grant, slot) in grants {
        let _ = grant.send(slot);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let grants = {
            let mut s = self.state.lock().expect("render queue lock");
            s.running -= 1;
            if let Some(line) = s.accounts.get_mut(&self.account) {
                line.running -= 1;
            }
            s.forget_if_idle(self.account);
            s.dispatch(&self.state)
        };
        hand_out(grants);
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut s = self.state.lock().expect("render queue lock");
        if let Some(line) = s.accounts.get_mut(&self.account) {
            line.waiting.retain(|w| w.ticket != self.ticket);
        }
        s.forget_if_idle(self.account);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{AccountId, BusinessId};

    fn queue(workers: usize, per_account: usize) -> Arc<FairQueue> {
        Arc::new(FairQueue::new(Limits {
            workers,
            per_account,
            waiting_per_account: 1000,
        }))
    }

    const LONG: Duration = Duration::from_secs(30);

    /// Starts a waiter for `account`; the returned receiver says when it got its slot, and
    /// the slot is held until the returned sender is dropped or sent.
    fn waiter(
        q: &Arc<FairQueue>,
        account: Account,
        urgent: bool,
        order: &Arc<Mutex<Vec<Account>>>,
    ) -> oneshot::Sender<()> {
        let (release, held) = oneshot::channel::<()>();
        let (q, order) = (q.clone(), order.clone());
        tokio::spawn(async move {
            let slot = q.acquire(account, urgent, LONG).await.unwrap();
            order.lock().unwrap().push(account);
            let _ = held.await;
            drop(slot);
        });
        release
    }

    async fn settle() {
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn another_accounts_render_goes_before_a_backlog_and_waits_for_one_render_at_most() {
        let q = queue(2, 2);
        let order = Arc::new(Mutex::new(Vec::new()));
        let attacker = Account::User(AccountId(1));
        let victim = Account::User(AccountId(2));
        let mut held = Vec::new();
        for _ in 0..50 {
            held.push(waiter(&q, attacker, false, &order));
            settle().await;
        }
        assert_eq!(
            q.load(),
            (2, 48),
            "two running, the rest of the backlog waits"
        );
        let victim_done = waiter(&q, victim, false, &order);
        settle().await;
        // One attacker render ends: the victim, not the 3rd attacker render, gets the worker.
        drop(held.remove(0));
        settle().await;
        assert_eq!(
            order.lock().unwrap().clone(),
            [vec![attacker; 2], vec![victim]].concat()
        );
        drop(victim_done);
        drop(held);
    }

    #[tokio::test]
    async fn one_account_never_holds_more_than_its_share_of_the_workers() {
        let q = queue(4, 2);
        let order = Arc::new(Mutex::new(Vec::new()));
        let a = Account::Business(BusinessId(1));
        let mut held: Vec<_> = (0..10).map(|_| waiter(&q, a, false, &order)).collect();
        settle().await;
        assert_eq!(q.load(), (2, 8), "two workers stay free for everyone else");
        let b: Vec<_> = (0..2)
            .map(|_| waiter(&q, Account::User(AccountId(9)), false, &order))
            .collect();
        settle().await;
        assert_eq!(q.load(), (4, 8));
        drop(b);
        held.clear();
        settle().await;
        assert_eq!(q.load(), (0, 0));
        assert!(q.lock().accounts.is_empty(), "idle accounts are forgotten");
    }

    #[tokio::test]
    async fn a_publish_goes_before_every_waiting_render() {
        let q = queue(1, 1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let first = waiter(&q, Account::User(AccountId(1)), false, &order);
        settle().await;
        let _editors: Vec<_> = (2..6)
            .map(|i| waiter(&q, Account::User(AccountId(i)), false, &order))
            .collect();
        settle().await;
        let _publish = waiter(&q, Account::User(AccountId(7)), true, &order);
        settle().await;
        drop(first);
        settle().await;
        assert_eq!(
            order.lock().unwrap().clone(),
            vec![Account::User(AccountId(1)), Account::User(AccountId(7))]
        );
    }

    #[tokio::test]
    async fn a_full_line_is_refused_at_once_and_a_wait_past_its_bound_leaves_the_line() {
        let q = Arc::new(FairQueue::new(Limits {
            workers: 1,
            per_account: 1,
            waiting_per_account: 2,
        }));
        let a = Account::User(AccountId(1));
        let held = q.acquire(a, false, LONG).await.unwrap();
        let (q1, q2) = (q.clone(), q.clone());
        let w1 = tokio::spawn(async move { q1.acquire(a, false, LONG).await.map(drop) });
        let w2 = tokio::spawn(async move { q2.acquire(a, false, LONG).await.map(drop) });
        settle().await;
        assert_eq!(
            q.acquire(a, false, LONG).await.err(),
            Some(Refused::LineFull)
        );
        assert_eq!(
            q.acquire(
                Account::User(AccountId(2)),
                false,
                Duration::from_millis(20)
            )
            .await
            .err(),
            Some(Refused::Waited)
        );
        assert_eq!(q.load(), (1, 2), "the one that gave up left the line");
        w1.abort();
        let _ = w1.await;
        settle().await;
        assert_eq!(q.load(), (1, 1), "a cancelled wait leaves the line too");
        drop(held);
        assert!(w2.await.unwrap().is_ok());
        assert_eq!(q.load(), (0, 0));
    }
}
