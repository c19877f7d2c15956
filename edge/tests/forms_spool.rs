//! Form submissions survive a database outage: a flood of submissions, the database cut off
//! in the middle of it, and every single one is in the form history afterwards.

use std::{net::IpAddr, sync::Arc, time::Duration};

use bytes::Bytes;
use vitrine_edge::{
    metrics::Metrics,
    submissions::{FormLimits, Forms, Incoming, Outcome, Refused},
};
use vitrine_shared::{
    ids::ProjectId,
    manifest::FormSettings,
    store::{NewProject, NewUser, Store},
    testing::{Backend, TcpProxy, TestDb},
};

async fn project(store: &Store) -> ProjectId {
    let user = store
        .insert_user(&NewUser {
            name: "Dona",
            email: "dona@example.com",
            password_hash: "x",
            language: vitrine_shared::language::Language::PtBr,
            is_admin: false,
        })
        .await
        .unwrap();
    store.mark_email_confirmed(user.id).await.unwrap();
    store
        .insert_project(
            &NewProject {
                user_id: user.id,
                name: "Loja",
                slug: "loja",
                token: "tok-loja",
                uuid: "uuid-loja",
                meta: serde_json::json!({}),
            },
            "Início",
        )
        .await
        .unwrap()
        .id
}

fn submission<'a>(
    project_id: ProjectId,
    settings: &'a FormSettings,
    i: usize,
    peer: u8,
) -> Incoming<'a> {
    Incoming {
        project_id,
        settings,
        page_url: "/contato".into(),
        content_type: Some("application/x-www-form-urlencoded"),
        body: Bytes::from(format!(
            "nome=Visitante+{i}&mensagem=Ol%C3%A1&_subject=Contato+{i}"
        )),
        client: IpAddr::from([10, 0, peer, (i % 250) as u8]),
        host: "loja.example",
        user_agent: None,
    }
}

/// `per_visitor` a minute for each visitor, and no per-site limit or notification cap to
/// speak of (these tests count one mail per submission).
fn limits(per_visitor: u32) -> FormLimits {
    FormLimits {
        per_visitor_per_minute: per_visitor,
        per_site_per_minute: 100_000,
        notifications_per_recipient_per_hour: i64::MAX,
        ..FormLimits::default()
    }
}

fn metrics() -> Arc<Metrics> {
    Arc::new(Metrics::default())
}

/// A PostgreSQL database with one project, and forms whose store reaches it through a proxy
/// the test can cut, spooling to a fresh directory.
struct Outage {
    db: TestDb,
    project_id: i64,
    proxy: TcpProxy,
    forms: Arc<Forms>,
    _spool: tempfile::TempDir,
}

impl Outage {
    async fn new() -> Outage {
        let db = TestDb::new(Backend::Postgres).await;
        let project_id = project(&db.store).await;
        let proxy = TcpProxy::in_front_of(&db.url).await;
        let through_proxy = Store::connect(&proxy.postgres_url(&db.url)).await.unwrap();
        let spool = tempfile::tempdir().unwrap();
        let forms = Forms::new(through_proxy, spool.path(), limits(10_000), metrics()).unwrap();
        Outage {
            db,
            project_id: project_id.get(),
            proxy,
            forms,
            _spool: spool,
        }
    }
}

/// Replays the spool as the replayer would, until the database answers (up to 10 s): how many
/// submissions went in, or `None` if it never came back.
async fn replay_once_back(forms: &Forms) -> Option<usize> {
    for _ in 0..50 {
        if let Ok(n) = forms.replay().await {
            return Some(n);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_submission_is_lost_when_the_database_goes_away_mid_flood() {
    let Outage {
        db,
        project_id,
        proxy,
        forms,
        _spool,
    } = Outage::new().await;
    let settings = Arc::new(FormSettings {
        to: "dona@example.com".into(),
        subject: "Novo contato".into(),
        ..FormSettings::default()
    });

    const TOTAL: usize = 300;
    let mut handles = Vec::new();
    for i in 0..TOTAL {
        if i == TOTAL / 3 {
            proxy.cut();
        }
        if i == 2 * TOTAL / 3 {
            // Still down for a while: these go to the spool too.
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let forms = forms.clone();
        let settings = settings.clone();
        handles.push(tokio::spawn(async move {
            forms
                .submit(submission(ProjectId(project_id), &settings, i, 1))
                .await
        }));
        if i % 20 == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let mut outcomes = Vec::new();
    for h in handles {
        outcomes.push(h.await.unwrap().expect("every submission is accepted"));
    }
    let spooled = outcomes.iter().filter(|o| **o == Outcome::Spooled).count();
    assert!(spooled > 0, "the outage must have sent some to the spool");
    assert_eq!(forms.spooled().await, spooled);

    // Replaying while the database is still down keeps the spool whole.
    assert!(forms.replay().await.is_err());
    assert_eq!(forms.spooled().await, spooled);

    proxy.restore();
    let replayed = replay_once_back(&forms).await;
    assert_eq!(replayed, Some(spooled));
    // A second replay (say, after a crash before truncating) adds nothing.
    assert_eq!(forms.replay().await.unwrap(), 0);

    let (rows, total) = db
        .store
        .list_submissions(ProjectId(project_id), true, 1000, 0)
        .await
        .unwrap();
    assert_eq!(
        total as usize, TOTAL,
        "every submission is in the form history"
    );
    let mut subjects: Vec<String> = rows.iter().map(|r| r.subject.clone()).collect();
    subjects.sort();
    subjects.dedup();
    assert_eq!(subjects.len(), TOTAL, "no duplicates");
    assert!(rows.iter().all(|r| r.to == "dona@example.com"));
    assert!(rows[0].data.contains("<dt>nome</dt>"));
    let mails = db.store.mail_to("dona@example.com").await.unwrap();
    assert_eq!(mails.len(), TOTAL, "one notification per submission");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn honeypot_rate_limit_and_size_are_enforced() {
    let db = TestDb::new(Backend::Sqlite).await;
    let project_id = project(&db.store).await;
    let spool = tempfile::tempdir().unwrap();
    let forms = Forms::new(db.store.clone(), spool.path(), limits(3), metrics()).unwrap();
    let settings = FormSettings {
        to: "dona@example.com".into(),
        subject: "Novo contato".into(),
        ..FormSettings::default()
    };
    let mut bot = submission(project_id, &settings, 1, 9);
    bot.body = Bytes::from_static(b"nome=bot&_gotcha=http%3A%2F%2Fspam");
    assert_eq!(forms.submit(bot).await, Ok(Outcome::Ignored));

    for i in 0..3 {
        assert_eq!(
            forms.submit(submission(project_id, &settings, 0, 2)).await,
            Ok(Outcome::Stored),
            "attempt {i}"
        );
    }
    assert!(matches!(
        forms.submit(submission(project_id, &settings, 0, 2)).await,
        Err(Refused::RateLimited(_))
    ));
    // Another address is not affected.
    assert_eq!(
        forms.submit(submission(project_id, &settings, 0, 3)).await,
        Ok(Outcome::Stored)
    );

    let mut big = submission(project_id, &settings, 1, 4);
    big.body = Bytes::from(vec![b'a'; 64 * 1024 + 1]);
    assert_eq!(forms.submit(big).await, Err(Refused::TooLarge));
    let mut empty = submission(project_id, &settings, 1, 5);
    empty.body = Bytes::from_static(b"_subject=x");
    assert_eq!(forms.submit(empty).await, Err(Refused::Malformed));

    let (_, total) = db
        .store
        .list_submissions(project_id, true, 100, 0)
        .await
        .unwrap();
    assert_eq!(total, 4, "the bot and the refused ones are not stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn during_an_outage_only_the_first_submission_waits_for_the_database() {
    let Outage {
        db,
        project_id,
        proxy,
        forms,
        _spool,
    } = Outage::new().await;
    let settings = FormSettings {
        to: "dona@example.com".into(),
        subject: "Novo contato".into(),
        ..FormSettings::default()
    };
    assert_eq!(
        forms
            .submit(submission(ProjectId(project_id), &settings, 0, 1))
            .await,
        Ok(Outcome::Stored)
    );

    proxy.cut();
    let started = std::time::Instant::now();
    assert_eq!(
        forms
            .submit(submission(ProjectId(project_id), &settings, 1, 1))
            .await,
        Ok(Outcome::Spooled)
    );
    assert!(
        started.elapsed() < vitrine_edge::submissions::DB_WAIT + Duration::from_secs(2),
        "the first submission of the outage waits at most DB_WAIT, took {:?}",
        started.elapsed()
    );
    // The database is known to be down: the next ones go to the spool without trying it.
    let tried = proxy.connections();
    for i in 2..22 {
        assert_eq!(
            forms
                .submit(submission(ProjectId(project_id), &settings, i, 1))
                .await,
            Ok(Outcome::Spooled)
        );
    }
    assert_eq!(
        proxy.connections(),
        tried,
        "no connection attempts while the database is known to be down"
    );
    // A replay probes the database; still down, it keeps everything and the state.
    assert!(forms.replay().await.is_err());
    assert_eq!(forms.spooled().await, 21);
    assert_eq!(
        forms
            .submit(submission(ProjectId(project_id), &settings, 22, 1))
            .await,
        Ok(Outcome::Spooled)
    );

    proxy.restore();
    let replayed = replay_once_back(&forms).await;
    assert_eq!(replayed, Some(22));
    // Back up: submissions are stored directly again.
    assert_eq!(
        forms
            .submit(submission(ProjectId(project_id), &settings, 23, 1))
            .await,
        Ok(Outcome::Stored)
    );
    assert_eq!(forms.spooled().await, 0);
    let (_, total) = db
        .store
        .list_submissions(ProjectId(project_id), true, 100, 0)
        .await
        .unwrap();
    assert_eq!(total, 24, "every submission is in the form history once");
}
