//! The queue of site pictures (the project cards' pictures taken after each publish, see
//! [`Pictures::after_publish`], the hook the publisher is given), shared fairly between
//! accounts (issue 40). An account is a user, or a whole business
//! ([`vitrine_shared::Store::project_account`]).
//!
//! - **One pending picture per project:** the queue is keyed by project; a newer deploy
//!   replaces the one waiting (only the live deploy's picture is of any use).
//! - **One picture at a time per account,** and accounts take turns: of the [`SITE_SHOTS`]
//!   Chromium at once, one account holds at most one, so another account's picture starts as
//!   soon as a slot is free, however many projects the first one publishes.
//! - **A budget per account:** at most `SITE_SCREENSHOTS_PER_ACCOUNT_PER_HOUR` pictures started
//!   (or waiting) in any hour; past it a publish gets no picture (the card keeps the last
//!   one) until the hour has passed.
//!
//! The queue is this process's (a control plane's); pictures are a convenience that a restart
//! may drop, never a record.

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use super::screenshot;
use crate::{base::Core, confine::Usage, external_lists::Answers};
use vitrine_shared::ids::{DeployId, ProjectId};

pub use super::screenshot::SITE_SHOTS;

/// The budget's window.
const HOUR: Duration = Duration::from_secs(3600);

/// How many finished pictures [`Pictures::runs`] remembers.
const RUNS_KEPT: usize = 100;

/// One picture to take: the deploy of a project, for an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    pub project_id: ProjectId,
    pub deploy_id: DeployId,
    pub account: String,
}

/// What became of a publish's picture request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queued {
    /// Waiting for its turn.
    Added,
    /// It took the place of the project's older deploy, which will not be pictured.
    Replaced,
    /// The account's budget for the hour is spent: no picture.
    OverBudget,
    /// The project is gone (or the store could not say whose it is): no picture.
    Gone,
}

/// A picture that was taken (or tried), for the metrics, the logs and the tests.
#[derive(Debug, Clone)]
pub struct Run {
    pub job: Job,
    /// `taken`, `none`, `no_browser` or `failed`.
    pub outcome: &'static str,
    /// What its Chromium used (`Usage::default()` when none ran).
    pub usage: Usage,
    pub took: Duration,
}

#[derive(Default)]
struct Queue {
    /// The one waiting picture of each project: its deploy and account.
    pending: HashMap<ProjectId, Job>,
    /// Projects waiting, per account, in order of arrival.
    waiting: HashMap<String, VecDeque<ProjectId>>,
    /// Accounts with projects waiting, in the order of their turns.
    turns: VecDeque<String>,
    /// Accounts with a picture being taken, and its project.
    busy: HashMap<String, ProjectId>,
    /// When each account's pictures of the last hour were queued.
    spent: HashMap<String, VecDeque<Instant>>,
    /// Workers running.
    workers: usize,
}

impl Queue {
    fn push(&mut self, job: Job, budget: usize, now: Instant) -> Queued {
        if let Some(waiting) = self.pending.get_mut(&job.project_id) {
            // Two publishes' requests may arrive out of order; deploy ids only grow.
            waiting.deploy_id = waiting.deploy_id.max(job.deploy_id);
            return Queued::Replaced;
        }
        let spent = self.spent.entry(job.account.clone()).or_default();
        while spent
            .front()
            .is_some_and(|at| now.duration_since(*at) >= HOUR)
        {
            spent.pop_front();
        }
        if spent.len() >= budget {
            return Queued::OverBudget;
        }
        spent.push_back(now);
        let waiting = self.waiting.entry(job.account.clone()).or_default();
        if waiting.is_empty() && !self.turns.contains(&job.account) {
            self.turns.push_back(job.account.clone());
        }
        waiting.push_back(job.project_id);
        self.pending.insert(job.project_id, job);
        Queued::Added
    }

    /// The next picture: the first account in turn with nothing being taken, its oldest
    /// project; that account goes to the back of the turns.
    fn next(&mut self) -> Option<Job> {
        let at = self.turns.iter().position(|a| !self.busy.contains_key(a))?;
        let account = self.turns.remove(at)?;
        let waiting = self.waiting.get_mut(&account)?;
        let project = waiting.pop_front()?;
        if waiting.is_empty() {
            self.waiting.remove(&account);
        } else {
            self.turns.push_back(account.clone());
        }
        self.busy.insert(account, project);
        self.pending.remove(&project)
    }

    fn done(&mut self, account: &str) {
        self.busy.remove(account);
    }
}

/// The site pictures of this process: the queue and what was taken (see the module docs).
/// A service: it is given the [`Core`] and the API-fed lists' answers (a home page with live
/// lists is rendered with them) and owns its queue; clones share it.
#[derive(Clone)]
pub struct Pictures {
    core: Core,
    answers: Answers,
    taken: Arc<Taken>,
}

/// The queue and the pictures taken lately.
#[derive(Default)]
struct Taken {
    queue: Mutex<Queue>,
    runs: Mutex<VecDeque<Run>>,
}

impl Pictures {
    pub fn new(core: Core, answers: Answers) -> Self {
        Pictures {
            core,
            answers,
            taken: Default::default(),
        }
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.taken.queue.lock().expect("pictures poisoned")
    }

    /// Pictures waiting for `project_id` (0 or 1).
    pub fn pending(&self, project_id: ProjectId) -> usize {
        usize::from(self.queue().pending.contains_key(&project_id))
    }

    /// The projects whose picture is being taken.
    pub fn running(&self) -> Vec<ProjectId> {
        self.queue().busy.values().copied().collect()
    }

    /// The pictures taken lately, oldest first.
    pub fn runs(&self) -> Vec<Run> {
        self.taken
            .runs
            .lock()
            .expect("pictures poisoned")
            .iter()
            .cloned()
            .collect()
    }

    fn record(&self, run: Run) {
        let mut runs = self.taken.runs.lock().expect("pictures poisoned");
        if runs.len() == RUNS_KEPT {
            runs.pop_front();
        }
        runs.push_back(run);
    }

    /// Pictures the home page of a deploy that just went live, in the background, in its
    /// account's turn (see the module's documentation). Failures are logged, never reported
    /// to the publish. The publisher calls this after each publish (see [`crate::state`]).
    pub fn after_publish(&self, project_id: ProjectId, deploy_id: DeployId) {
        if !self.core.settings.site_screenshots {
            return;
        }
        let pictures = self.clone();
        tokio::spawn(async move {
            pictures.enqueue(project_id, deploy_id).await;
        });
    }

    /// Queues the picture of `deploy_id`, the live deploy of `project_id`, and starts a worker
    /// when a slot is free.
    pub async fn enqueue(&self, project_id: ProjectId, deploy_id: DeployId) -> Queued {
        let core = &self.core;
        let account = match core.store.project_account(project_id).await {
            Ok(Some(account)) => account,
            // A project deleted meanwhile has nothing to picture; a store error is not worth a
            // picture either.
            Ok(None) | Err(_) => return Queued::Gone,
        };
        let budget = core.settings.site_screenshots_per_account_per_hour as usize;
        let job = Job {
            project_id,
            deploy_id,
            account,
        };
        let queued = {
            let mut q = self.queue();
            let queued = q.push(job, budget, Instant::now());
            if queued == Queued::Added && q.workers < SITE_SHOTS {
                q.workers += 1;
                tokio::spawn(self.clone().work());
            }
            queued
        };
        match queued {
            Queued::Added | Queued::Gone => {}
            Queued::Replaced => core.metrics.site_screenshot("replaced"),
            Queued::OverBudget => {
                tracing::debug!(
                    project_id = project_id.get(),
                    "site picture over the account's budget"
                );
                core.metrics.site_screenshot("over_budget");
            }
        }
        queued
    }

    /// Takes pictures while there are any this worker may take, then ends (under the queue's
    /// lock, so a picture queued meanwhile starts a worker of its own).
    async fn work(self) {
        loop {
            let job = {
                let mut q = self.queue();
                match q.next() {
                    Some(job) => job,
                    None => {
                        q.workers -= 1;
                        return;
                    }
                }
            };
            let started = Instant::now();
            let (outcome, usage) =
                screenshot::picture(&self.core, &self.answers, job.project_id, job.deploy_id).await;
            let took = started.elapsed();
            tracing::debug!(
                project_id = job.project_id.get(),
                deploy_id = job.deploy_id.get(),
                outcome,
                ?usage,
                ?took,
                "site picture"
            );
            self.core.metrics.site_screenshot(outcome);
            self.queue().done(&job.account);
            self.record(Run {
                job,
                outcome,
                usage,
                took,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(project_id: ProjectId, deploy_id: DeployId, account: &str) -> Job {
        Job {
            project_id,
            deploy_id,
            account: account.into(),
        }
    }

    #[test]
    fn a_newer_deploy_replaces_the_waiting_one() {
        let mut q = Queue::default();
        let now = Instant::now();
        assert_eq!(
            q.push(job(ProjectId(1), DeployId(10), "u1"), 30, now),
            Queued::Added
        );
        for deploy in 11..20 {
            assert_eq!(
                q.push(job(ProjectId(1), DeployId(deploy), "u1"), 30, now),
                Queued::Replaced
            );
        }
        // A late request for an older deploy does not take the newer one's place.
        assert_eq!(
            q.push(job(ProjectId(1), DeployId(15), "u1"), 30, now),
            Queued::Replaced
        );
        assert_eq!(q.pending.len(), 1);
        assert_eq!(q.next(), Some(job(ProjectId(1), DeployId(19), "u1")));
        assert_eq!(q.next(), None);
    }

    #[test]
    fn accounts_take_turns_and_hold_one_picture_at_a_time() {
        let mut q = Queue::default();
        let now = Instant::now();
        for project in 1..=5 {
            q.push(job(ProjectId(project), DeployId(1), "b7"), 30, now);
        }
        q.push(job(ProjectId(100), DeployId(1), "u9"), 30, now);
        let first = q.next().unwrap();
        assert_eq!(first.account, "b7");
        // b7 is busy: the other account's picture comes next, and nothing more of b7's.
        assert_eq!(q.next().unwrap().account, "u9");
        assert_eq!(q.next(), None);
        q.done("u9");
        assert_eq!(q.next(), None);
        q.done("b7");
        assert_eq!(q.next().unwrap().project_id, ProjectId(2));
    }

    #[test]
    fn an_account_over_its_budget_gets_nothing_until_the_hour_has_passed() {
        let mut q = Queue::default();
        let now = Instant::now();
        for project in 1..=3 {
            assert_eq!(
                q.push(job(ProjectId(project), DeployId(1), "u1"), 3, now),
                Queued::Added
            );
            q.next();
            q.done("u1");
        }
        assert_eq!(
            q.push(job(ProjectId(4), DeployId(1), "u1"), 3, now),
            Queued::OverBudget
        );
        assert_eq!(
            q.push(job(ProjectId(5), DeployId(1), "u2"), 3, now),
            Queued::Added
        );
        let later = now + HOUR;
        assert_eq!(
            q.push(job(ProjectId(4), DeployId(1), "u1"), 3, later),
            Queued::Added
        );
    }
}
