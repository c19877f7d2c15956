//! Store tests, each run on SQLite and on PostgreSQL.

use chrono::Duration;
use serde_json::json;

use super::*;
use crate::{
    dual_test,
    ids::{AccountId, FieldId, PostId, ProjectId},
    sections::{SectionKind, Sections},
    snapshot::{SnapField, SnapPage, SnapPost, SnapRedirect, SnapTable, Snapshot},
    testing::TestDb,
};

pub(crate) async fn user(db: &TestDb, email: &str) -> User {
    db.store
        .insert_user(&NewUser {
            name: "Ana",
            email,
            password_hash: "x",
            language: crate::language::Language::PtBr,
            is_admin: false,
        })
        .await
        .unwrap()
}

pub(crate) async fn project(db: &TestDb, owner: AccountId, slug: &str) -> Project {
    db.store
        .insert_project(
            &NewProject {
                user_id: owner,
                name: "Loja",
                slug,
                token: &format!("tok-{slug}"),
                uuid: &format!("uuid-{slug}"),
                meta: json!({}),
            },
            "Início",
        )
        .await
        .unwrap()
}

dual_test!(
    async fn typed_ids_are_written_and_read_back_as_the_same_rows(db: TestDb) {
        let owner = user(&db, "ids@example.com").await;
        let business = db.store.insert_business("Ids").await.unwrap();
        let whitelist = Permissions {
            projects_whitelist: Some(vec![ProjectId(41), ProjectId(42)]),
            ..Permissions::default()
        };
        db.store
            .set_user_business(owner.id, Some(business), false, &whitelist)
            .await
            .unwrap();
        let p = project(&db, owner.id, "ids").await;
        let page = db.store.insert_page(p.id, "Sobre", "sobre").await.unwrap();
        let c = db
            .store
            .insert_collection(p.id, "Itens", "itens", &json!({}))
            .await
            .unwrap();
        let post = db
            .store
            .insert_post(
                c.id,
                &NewPost {
                    name: "Um".into(),
                    slug: "um".into(),
                    data: serde_json::Map::new(),
                    created_at: now(),
                },
                u64::MAX,
            )
            .await
            .unwrap();

        let back = db.store.user_by_id(owner.id).await.unwrap();
        assert_eq!((back.id, back.business_id), (owner.id, Some(business)));
        assert_eq!(back.permissions.0, whitelist);
        assert_eq!(
            db.store.project_by_id(p.id).await.unwrap().user_id,
            owner.id
        );
        assert_eq!(
            db.store.business_project_ids(business).await.unwrap(),
            vec![p.id]
        );
        assert_eq!(db.store.page_project_id(page.id).await.unwrap(), p.id);
        assert_eq!(db.store.page_by_id(page.id).await.unwrap().project_id, p.id);
        assert_eq!(db.store.collection_project_id(c.id).await.unwrap(), p.id);
        assert_eq!(post.collection_id, c.id);
        assert_eq!(
            db.store.posts_projects(&[post.id]).await.unwrap(),
            vec![(post.id, p.id)]
        );
        assert_eq!(
            db.store.project_id_by_token("tok-ids").await.unwrap(),
            Some(p.id)
        );
    }
);

dual_test!(
    async fn emails_are_unique(db: TestDb) {
        user(&db, "ana@example.com").await;
        let err = db
            .store
            .insert_user(&NewUser {
                name: "B",
                email: "ana@example.com",
                password_hash: "x",
                language: crate::language::Language::En,
                is_admin: false,
            })
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Conflict("users_email_key")),
            "{err:?}"
        );
        assert!(
            db.store
                .user_by_email("ana@example.com")
                .await
                .unwrap()
                .is_some()
        );
    }
);

dual_test!(
    async fn sessions_expire_and_can_be_deleted(db: TestDb) {
        let u = user(&db, "s@example.com").await;
        db.store
            .insert_session("live", u.id, None, now() + Duration::hours(1))
            .await
            .unwrap();
        db.store
            .insert_session("old", u.id, None, now() - Duration::seconds(1))
            .await
            .unwrap();
        assert_eq!(
            db.store
                .session_user("live")
                .await
                .unwrap()
                .unwrap()
                .user
                .id,
            u.id
        );
        assert!(db.store.session_user("old").await.unwrap().is_none());
        db.store.delete_session("live").await.unwrap();
        assert!(db.store.session_user("live").await.unwrap().is_none());
        assert_eq!(db.store.prune_expired().await.unwrap(), 1);
    }
);

dual_test!(
    async fn a_project_starts_with_a_home_page_and_slugs_are_unique(db: TestDb) {
        let u = user(&db, "p@example.com").await;
        let p = project(&db, u.id, "loja").await;
        let pages = db.store.project_pages(p.id).await.unwrap();
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0].slug, "/");
        let err = db
            .store
            .insert_project(
                &NewProject {
                    user_id: u.id,
                    name: "X",
                    slug: "loja",
                    token: "t2",
                    uuid: "u2",
                    meta: json!({}),
                },
                "Home",
            )
            .await
            .unwrap_err();
        assert!(
            // SQLite names the first of the site's unique columns it checks, PostgreSQL the slug.
            matches!(err, StoreError::Conflict(_)),
            "{err:?}"
        );
        assert_eq!(db.store.free_project_slug("loja").await.unwrap(), "loja-2");
        assert_eq!(db.store.free_project_slug("outra").await.unwrap(), "outra");
    }
);

dual_test!(
    async fn a_pending_domain_reserves_nothing_and_its_proof_evicts_the_others(db: TestDb) {
        let u = user(&db, "d@example.com").await;
        let (a, b, c) = (
            project(&db, u.id, "a").await,
            project(&db, u.id, "b").await,
            project(&db, u.id, "c").await,
        );
        let soon = now() + Duration::minutes(1);
        // Any number of projects may wait for a unit, through either of its names.
        db.store
            .save_domain_claim(a.id, "shop.example", soon)
            .await
            .unwrap();
        db.store
            .save_domain_claim(b.id, "www.shop.example", soon)
            .await
            .unwrap();
        db.store
            .save_domain_claim(c.id, "other.example", soon)
            .await
            .unwrap();
        assert_eq!(db.store.domain_holder("shop.example").await.unwrap(), None);

        db.store
            .mark_domain_verified(b.id, "www.shop.example")
            .await
            .unwrap();
        assert_eq!(
            db.store.domain_holder("shop.example").await.unwrap(),
            Some(b.id)
        );
        assert_eq!(
            db.store.domain_holder("www.shop.example").await.unwrap(),
            Some(b.id)
        );
        // Both pending holders of the unit are gone; the other unit's claim stays.
        assert_eq!(db.store.domain_claim(a.id).await.unwrap(), None);
        assert_eq!(db.store.domain_claim(b.id).await.unwrap(), None);
        assert!(db.store.domain_claim(c.id).await.unwrap().is_some());

        // The database refuses a second holder of the unit, by either name.
        for name in ["shop.example", "www.shop.example"] {
            let err = db.store.mark_domain_verified(a.id, name).await.unwrap_err();
            assert!(
                matches!(err, StoreError::Conflict(DOMAIN_UNIT_TAKEN)),
                "{name}: {err:?}"
            );
        }
        let a_now = db.store.project_by_id(a.id).await.unwrap();
        assert!(!a_now.verified && a_now.verified_domain.is_none());
        // A background check only verifies the claim it checked.
        assert!(
            !db.store
                .verify_domain_claim(c.id, "changed.example")
                .await
                .unwrap()
        );
        assert!(
            db.store
                .verify_domain_claim(c.id, "other.example")
                .await
                .unwrap()
        );
        // Removing frees the unit.
        db.store.remove_domain(b.id).await.unwrap();
        db.store
            .mark_domain_verified(a.id, "shop.example")
            .await
            .unwrap();
        assert_eq!(
            db.store.domain_holder("www.shop.example").await.unwrap(),
            Some(a.id)
        );
    }
);

dual_test!(
    async fn due_domain_checks_go_to_one_caller_each(db: TestDb) {
        let u = user(&db, "due@example.com").await;
        for i in 0..6 {
            let p = project(&db, u.id, &format!("due-{i}")).await;
            db.store
                .save_domain_claim(p.id, &format!("d{i}.example"), now() - Duration::seconds(1))
                .await
                .unwrap();
        }
        let later = project(&db, u.id, "later").await;
        db.store
            .save_domain_claim(later.id, "later.example", now() + Duration::hours(1))
            .await
            .unwrap();
        let (x, y) = tokio::join!(
            db.store.claim_due_domain_checks(10, Duration::minutes(2)),
            db.store.claim_due_domain_checks(10, Duration::minutes(2)),
        );
        let mut all: Vec<ProjectId> = x
            .unwrap()
            .into_iter()
            .chain(y.unwrap())
            .map(|c| c.project_id)
            .collect();
        all.sort();
        let before = all.len();
        all.dedup();
        assert_eq!(
            (before, all.len()),
            (6, 6),
            "each due claim once, the later one not at all"
        );
        assert!(
            db.store
                .claim_due_domain_checks(10, Duration::minutes(2))
                .await
                .unwrap()
                .is_empty()
        );
        let first = all[0];
        let claim = db.store.domain_claim(first).await.unwrap().unwrap();
        db.store
            .record_domain_check(first, &claim.domain, "no TXT yet", None)
            .await
            .unwrap();
        let claim = db.store.domain_claim(first).await.unwrap().unwrap();
        assert_eq!(
            (
                claim.checks,
                claim.last_result.as_deref(),
                claim.next_check_at
            ),
            (1, Some("no TXT yet"), None)
        );
    }
);

dual_test!(
    async fn a_freed_slug_is_held_for_its_owner_only(db: TestDb) {
        let ana = user(&db, "ana-slug@example.com").await;
        let bia = user(&db, "bia-slug@example.com").await;
        let loja = project(&db, ana.id, "loja").await;
        db.store.delete_project(loja.id).await.unwrap();
        let since = now() - Duration::days(30);
        let err = db
            .store
            .slug_available_to("loja", bia.id, since)
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Conflict(SLUG_HELD)), "{err:?}");
        let new = NewProject {
            user_id: bia.id,
            name: "Bia",
            slug: "loja",
            token: "tok-bia",
            uuid: "uuid-bia",
            meta: json!({}),
        };
        let err = db.store.insert_project(&new, "Início").await.unwrap_err();
        assert!(matches!(err, StoreError::Conflict(SLUG_HELD)), "{err:?}");
        // A derived slug skips it; the owner takes it back, which ends the hold.
        assert_eq!(db.store.free_project_slug("loja").await.unwrap(), "loja-2");
        db.store
            .slug_available_to("loja", ana.id, since)
            .await
            .unwrap();
        let back = project(&db, ana.id, "loja").await;
        assert_eq!(db.store.slug_hold("loja").await.unwrap(), None);

        // Changing a slug holds the old one; after the period it is anyone's.
        db.store
            .update_project(
                back.id,
                &ProjectChanges {
                    slug: Some("loja-nova".into()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert_eq!(
            db.store.slug_hold("loja").await.unwrap().map(|h| h.0),
            Some(ana.id)
        );
        db.store
            .slug_available_to("loja", bia.id, now() + Duration::seconds(1))
            .await
            .unwrap();
        assert_eq!(db.store.slug_hold("loja").await.unwrap(), None);
        db.store.insert_project(&new, "Início").await.unwrap();
    }
);

dual_test!(
    async fn page_slugs_get_a_suffix_when_taken(db: TestDb) {
        let u = user(&db, "pg@example.com").await;
        let p = project(&db, u.id, "pages").await;
        assert_eq!(
            db.store
                .insert_page(p.id, "Sobre", "sobre")
                .await
                .unwrap()
                .slug,
            "sobre"
        );
        assert_eq!(
            db.store
                .insert_page(p.id, "Sobre", "sobre")
                .await
                .unwrap()
                .slug,
            "sobre-2"
        );
        assert_eq!(
            db.store.insert_page(p.id, "!!!", "/").await.unwrap().slug,
            "page"
        );
    }
);

fn rich_snapshot() -> Snapshot {
    Snapshot {
        project_meta: json!({"description": "Blog"}),
        pages: vec![
            SnapPage {
                name: "Início".into(),
                slug: "/".into(),
                description: "".into(),
                image: "".into(),
                meta: json!({}),
                output: "<h1>Oi</h1>".into(),
                blocks: json!([]),
                table: None,
            },
            SnapPage {
                name: "Post".into(),
                slug: "blog".into(),
                description: "".into(),
                image: "".into(),
                meta: json!({}),
                output: "{{ post.name }}".into(),
                blocks: json!([]),
                table: Some("posts".into()),
            },
        ],
        tables: vec![
            SnapTable {
                name: "Autores".into(),
                slug: "autores".into(),
                meta: json!({}),
                fields: vec![SnapField {
                    name: "Bio".into(),
                    slug: "bio".into(),
                    kind: "textarea".into(),
                    required: "0".into(),
                    options: json!([]),
                    meta: json!({}),
                }],
                posts: vec![SnapPost {
                    name: "Maria".into(),
                    slug: "maria".into(),
                    created_at: None,
                    fields: json!({"bio": "Escritora"}).as_object().unwrap().clone(),
                }],
            },
            SnapTable {
                name: "Posts".into(),
                slug: "posts".into(),
                meta: json!({"plural": "Posts"}),
                fields: vec![
                    SnapField {
                        name: "Resumo".into(),
                        slug: "resumo".into(),
                        kind: "text".into(),
                        required: "1".into(),
                        options: json!([]),
                        meta: json!({}),
                    },
                    SnapField {
                        name: "Autor".into(),
                        slug: "autor".into(),
                        kind: "relation".into(),
                        required: "0".into(),
                        options: json!([]),
                        meta: json!({"table": "autores"}),
                    },
                ],
                posts: vec![SnapPost {
                    name: "Olá".into(),
                    slug: "ola".into(),
                    created_at: None,
                    fields: json!({"resumo": "Primeiro", "autor": "maria"})
                        .as_object()
                        .unwrap()
                        .clone(),
                }],
            },
        ],
        redirects: vec![SnapRedirect {
            from: "/old".into(),
            to: "/".into(),
        }],
        sections: Sections {
            header: Some(
                json!({"uid": "global-header", "template": "<header>{{ brand }}</header>",
                "vars": [{"name": "brand", "type": "text", "value": "Sal"}]}),
            ),
            footer: None,
        },
    }
}

dual_test!(
    async fn snapshots_round_trip_with_relations_remapped(db: TestDb) {
        let u = user(&db, "snap@example.com").await;
        let snap = rich_snapshot();
        let new = NewProject {
            user_id: u.id,
            name: "A",
            slug: "a",
            token: "ta",
            uuid: "ua",
            meta: json!({}),
        };
        let a = db
            .store
            .insert_project_from_snapshot(&new, &snap, u64::MAX)
            .await
            .unwrap();
        let exported = db.store.export_snapshot(a.id).await.unwrap();
        // Import the export again: a copy with fresh ids but the same content.
        let new = NewProject {
            user_id: u.id,
            name: "B",
            slug: "b",
            token: "tb",
            uuid: "ub",
            meta: json!({}),
        };
        let b = db
            .store
            .insert_project_from_snapshot(&new, &exported, u64::MAX)
            .await
            .unwrap();
        let again = db.store.export_snapshot(b.id).await.unwrap();
        assert_eq!(again, exported);
        assert_eq!(again.tables[1].posts[0].fields["autor"], json!("maria"));
        assert_eq!(again.tables[1].fields[1].meta["table"], json!("autores"));
        assert_eq!(again.pages[1].table.as_deref(), Some("posts"));
        assert_eq!(again.redirects, snap.redirects);
        // The shared header goes with a copy.
        assert_eq!(again.sections, snap.sections);
        assert_eq!(db.store.project_collections(b.id).await.unwrap().len(), 2);
    }
);

dual_test!(
    async fn a_snapshot_that_fails_midway_writes_nothing(db: TestDb) {
        let u = user(&db, "atomic@example.com").await;
        let mut snap = rich_snapshot();
        // Two redirects with the same origin fail at the very end of the import.
        snap.redirects.push(SnapRedirect {
            from: "/x".into(),
            to: "/".into(),
        });
        snap.redirects.push(SnapRedirect {
            from: "/x".into(),
            to: "/y".into(),
        });
        let new = NewProject {
            user_id: u.id,
            name: "A",
            slug: "atomic",
            token: "t",
            uuid: "u",
            meta: json!({}),
        };
        assert!(
            db.store
                .insert_project_from_snapshot(&new, &snap, u64::MAX)
                .await
                .is_err()
        );
        assert!(
            db.store
                .projects_candidates(u.id, None)
                .await
                .unwrap()
                .is_empty()
        );
    }
);

dual_test!(
    async fn reset_tokens_work_once_and_end_sessions(db: TestDb) {
        let u = user(&db, "r@example.com").await;
        db.store
            .insert_session("s1", u.id, None, now() + Duration::hours(1))
            .await
            .unwrap();
        db.store
            .insert_password_reset("h", u.id, now() + Duration::hours(1))
            .await
            .unwrap();
        assert!(
            db.store
                .consume_password_reset("h", u.id, "new-hash")
                .await
                .unwrap()
        );
        assert!(
            !db.store
                .consume_password_reset("h", u.id, "other")
                .await
                .unwrap()
        );
        assert_eq!(
            db.store.user_by_id(u.id).await.unwrap().password_hash,
            "new-hash"
        );
        assert!(db.store.session_user("s1").await.unwrap().is_none());
        db.store
            .insert_password_reset("expired", u.id, now() - Duration::seconds(1))
            .await
            .unwrap();
        assert!(
            !db.store
                .consume_password_reset("expired", u.id, "x")
                .await
                .unwrap()
        );
    }
);

dual_test!(
    async fn outbox_rows_are_claimed_once_and_back_off_on_failure(db: TestDb) {
        let id = db
            .store
            .enqueue_mail("a@example.com", "Oi", "corpo")
            .await
            .unwrap();
        let first = db
            .store
            .claim_due_mail(10, Duration::minutes(5))
            .await
            .unwrap();
        assert_eq!(first.len(), 1);
        assert!(
            db.store
                .claim_due_mail(10, Duration::minutes(5))
                .await
                .unwrap()
                .is_empty()
        );
        db.store.mark_mail_failed(id, 0, "boom").await.unwrap();
        assert!(
            db.store
                .claim_due_mail(10, Duration::minutes(5))
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(db.store.outbox_counts().await.unwrap(), (1, 0));
        db.store.mark_mail_sent(id).await.unwrap();
        assert_eq!(db.store.outbox_counts().await.unwrap(), (0, 1));
    }
);

dual_test!(
    async fn templates_upsert_by_name(db: TestDb) {
        let info = TemplateInfo {
            name: "Blog",
            description: "d",
            category: "Blog",
            sort_order: 1,
        };
        let t1 = db
            .store
            .upsert_template(&info, &rich_snapshot())
            .await
            .unwrap();
        let t2 = db
            .store
            .upsert_template(
                &TemplateInfo {
                    description: "d2",
                    ..info
                },
                &rich_snapshot(),
            )
            .await
            .unwrap();
        assert_eq!(t1.id, t2.id);
        assert_eq!(t2.description, "d2");
        assert_eq!(db.store.list_templates(false).await.unwrap().len(), 1);
        assert_eq!(
            db.store.template_snapshot(t1.id).await.unwrap(),
            rich_snapshot()
        );
    }
);

dual_test!(
    async fn post_counts_stay_exact_and_bulk_inserts_keep_every_character(db: TestDb) {
        let u = user(&db, "count@example.com").await;
        let p = project(&db, u.id, "count").await;
        let c = db
            .store
            .insert_collection(p.id, "Itens", "itens", &json!({}))
            .await
            .unwrap();
        let tricky = "tab\there\nnew line \\ backslash \r return \"quotes\" ção";
        let mut data = serde_json::Map::new();
        data.insert("1".into(), json!(tricky));
        let rows: Vec<NewPost> = (0..2500)
            .map(|i| NewPost {
                name: format!("{tricky} {i}"),
                slug: format!("item-{i}"),
                data: data.clone(),
                created_at: now(),
            })
            .collect();
        assert_eq!(
            db.store.insert_posts(c.id, &rows, u64::MAX).await.unwrap(),
            2500
        );
        let one = db
            .store
            .insert_post(
                c.id,
                &NewPost {
                    name: "x".into(),
                    slug: "x".into(),
                    data: data.clone(),
                    created_at: now(),
                },
                u64::MAX,
            )
            .await
            .unwrap();
        let total = |db: &TestDb| {
            let store = db.store.clone();
            async move {
                store
                    .posts_page(c.id, &[(OrderKey::CreatedAt, true)], 10, 0)
                    .await
                    .unwrap()
                    .1
            }
        };
        assert_eq!(total(&db).await, 2501);
        let stored = db.store.posts_after(c.id, PostId(0), 1).await.unwrap();
        assert_eq!(stored[0].name, format!("{tricky} 0"));
        assert_eq!(stored[0].data.0["1"], json!(tricky));
        let first_two: Vec<PostId> = db
            .store
            .posts_after(c.id, PostId(0), 2)
            .await
            .unwrap()
            .iter()
            .map(|p| p.id)
            .collect();
        assert_eq!(
            db.store
                .delete_posts(&[first_two[0], first_two[1], one.id, PostId(99_999_999)])
                .await
                .unwrap(),
            3
        );
        assert_eq!(total(&db).await, 2498);
        // A duplicate slug in a bulk insert rolls back the whole batch, count included.
        let dup = vec![
            NewPost {
                name: "a".into(),
                slug: "fresh".into(),
                data: data.clone(),
                created_at: now(),
            },
            NewPost {
                name: "b".into(),
                slug: "item-10".into(),
                data,
                created_at: now(),
            },
        ];
        assert!(db.store.insert_posts(c.id, &dup, u64::MAX).await.is_err());
        assert_eq!(total(&db).await, 2498);
        assert!(
            !db.store
                .post_slugs(c.id)
                .await
                .unwrap()
                .contains_key("fresh")
        );
        // Projects made from snapshots start with exact counts.
        let copy = db
            .store
            .insert_project_from_snapshot(
                &NewProject {
                    user_id: u.id,
                    name: "Copy",
                    slug: "count-copy",
                    token: "tc",
                    uuid: "uc",
                    meta: json!({}),
                },
                &db.store.export_snapshot(p.id).await.unwrap(),
                u64::MAX,
            )
            .await
            .unwrap();
        let copied = db.store.project_collections(copy.id).await.unwrap();
        let (_, copied_total) = db
            .store
            .posts_page(copied[0].id, &[(OrderKey::CreatedAt, true)], 1, 0)
            .await
            .unwrap();
        assert_eq!(copied_total, 2498);
    }
);

dual_test!(
    /// The records list's first page (`GET /api/data/{id}`, issue 42's budget of 5 ms on a
    /// 100,000-post collection) is read from the `(collection_id, created_at, id)` index in
    /// the default order, newest first: no scan of the table and no sort of the collection's
    /// posts, which would grow with its size. PostgreSQL plans by its statistics, so the
    /// tables are analysed first; SQLite's plan (no statistics) is the same at any size.
    async fn the_first_page_of_posts_reads_the_order_index_without_sorting(db: TestDb) {
        let u = user(&db, "plan@example.com").await;
        let p = project(&db, u.id, "plan").await;
        let at = now();
        let mut ids = Vec::new();
        for slug in ["big", "other"] {
            let c = db
                .store
                .insert_collection(p.id, slug, slug, &json!({}))
                .await
                .unwrap();
            let rows: Vec<NewPost> = (0..3000)
                .map(|i| NewPost {
                    name: format!("Item {i}"),
                    slug: format!("item-{i}"),
                    data: [("1".to_string(), json!(i))].into_iter().collect(),
                    created_at: at,
                })
                .collect();
            db.store.insert_posts(c.id, &rows, u64::MAX).await.unwrap();
            ids.push(c.id);
        }
        let sql = db.store.posts_page_sql(&[(OrderKey::CreatedAt, true)]);
        let plan: Vec<String> = match &db.store {
            Store::Sqlite(pool) => sqlx::query_as::<_, (i64, i64, i64, String)>(trusted(&format!(
                "EXPLAIN QUERY PLAN {sql}"
            )))
            .bind(ids[0])
            .bind(100_i64)
            .bind(0_i64)
            .fetch_all(pool)
            .await
            .unwrap()
            .into_iter()
            .map(|row| row.3)
            .collect(),
            Store::Postgres(pool) => {
                sqlx::query("ANALYZE posts").execute(pool).await.unwrap();
                sqlx::query_scalar::<_, String>(trusted(&format!("EXPLAIN {sql}")))
                    .bind(ids[0])
                    .bind(100_i64)
                    .bind(0_i64)
                    .fetch_all(pool)
                    .await
                    .unwrap()
            }
        };
        let text = plan.join("\n");
        assert!(text.contains("posts_collection_created_idx"), "{text}");
        // SQLite says "USE TEMP B-TREE FOR ORDER BY" and "SCAN posts" (without an index),
        // PostgreSQL "Sort" and "Seq Scan", when a page would sort or read the whole table.
        for costly in ["TEMP B-TREE", "SCAN posts\n", "Sort", "Seq Scan"] {
            assert!(!format!("{text}\n").contains(costly), "{costly}: {text}");
        }
        // And it is the page that order gives: the newest posts, the last inserted first.
        let (page, total) = db
            .store
            .posts_page(ids[0], &[(OrderKey::CreatedAt, true)], 100, 0)
            .await
            .unwrap();
        assert_eq!((page.len(), total), (100, 3000));
        assert_eq!(page[0].slug, "item-2999");
    }
);

dual_test!(
    async fn pruning_the_change_feed_keeps_recent_entries_and_the_newest_id(db: TestDb) {
        let owner = user(&db, "feed@example.com").await;
        let p = project(&db, owner.id, "feed").await;
        let start = db.store.last_change_id().await.unwrap();
        for key in ["a", "b", "c"] {
            db.store.append_change(p.id, "records", key).await.unwrap();
        }
        let last = db.store.last_change_id().await.unwrap();
        assert_eq!(last - start, 3);
        // Nothing is older than an hour ago: nothing goes.
        let none = db
            .store
            .prune_changes(chrono::Utc::now() - Duration::hours(1))
            .await
            .unwrap();
        assert_eq!(none, 0);
        // Everything is older than a minute from now, but the newest entry stays, so an edge
        // that starts later still reads the right position.
        let pruned = db
            .store
            .prune_changes(chrono::Utc::now() + Duration::minutes(1))
            .await
            .unwrap();
        assert!(pruned >= 2, "{pruned}");
        assert_eq!(db.store.last_change_id().await.unwrap(), last);
        assert!(db.store.changes_since(start, 100).await.unwrap().len() == 1);
        db.store.append_change(p.id, "records", "d").await.unwrap();
        assert_eq!(db.store.last_change_id().await.unwrap(), last + 1);
    }
);

dual_test!(
    async fn retention_spares_the_active_and_building_deploys(db: TestDb) {
        let owner = user(&db, "ana@example.com").await;
        let p = project(&db, owner.id, "loja").await;
        let other = project(&db, owner.id, "outra").await;
        let mut ready = Vec::new();
        for _ in 0..5 {
            let d = db.store.create_deploy(p.id, None).await.unwrap();
            db.store.finish_deploy(d.id, "m", 1, 1).await.unwrap();
            ready.push(d.id);
        }
        let failed = db.store.create_deploy(p.id, None).await.unwrap();
        db.store
            .fail_deploy(
                failed.id,
                "boom",
                crate::error_code::ErrorCode::Internal,
                &Default::default(),
            )
            .await
            .unwrap();
        let building = db.store.create_deploy(p.id, None).await.unwrap();
        let elsewhere = db.store.create_deploy(other.id, None).await.unwrap();
        db.store
            .finish_deploy(elsewhere.id, "m", 1, 1)
            .await
            .unwrap();
        // Roll back to the oldest: it stays although three newer ones are kept.
        db.store.activate_deploy(p.id, ready[0]).await.unwrap();

        let ids = |v: Vec<Deploy>| v.into_iter().map(|d| d.id).collect::<Vec<_>>();
        let an_hour_ago = chrono::Utc::now() - Duration::hours(1);
        assert_eq!(
            ids(db.store.prunable_deploys(3, an_hour_ago).await.unwrap()),
            vec![ready[1]],
            "the failed build is too recent to go"
        );
        let soon = chrono::Utc::now() + Duration::hours(1);
        assert_eq!(
            ids(db.store.prunable_deploys(2, soon).await.unwrap()),
            vec![ready[1], ready[2], failed.id]
        );
        assert!(db.store.delete_deploy(ready[1]).await.unwrap());
        assert!(!db.store.delete_deploy(ready[0]).await.unwrap(), "active");
        assert!(
            !db.store.delete_deploy(building.id).await.unwrap(),
            "building"
        );
        assert_eq!(
            ids(db.store.list_deploys(p.id, 50).await.unwrap()),
            vec![
                building.id,
                failed.id,
                ready[4],
                ready[3],
                ready[2],
                ready[0]
            ]
        );
    }
);

/// Publishes a project: one ready deploy, made live.
async fn publish(db: &TestDb, project_id: ProjectId) {
    let d = db.store.create_deploy(project_id, None).await.unwrap();
    db.store.finish_deploy(d.id, "m", 1, 1).await.unwrap();
}

dual_test!(
    async fn billing_posts_each_months_plan_fees_and_site_charges_once(db: TestDb) {
        use crate::billing::Month;
        use crate::money::Currency::{Brl, Usd};
        let month = Month::of(chrono::Utc::now());
        let at = month.end();

        // Ana (BRL, basic): one site on line, one published and unpublished mid-month, one
        // never published, one published and deleted, one on line only last month.
        let ana = user(&db, "ana@example.com").await;
        let live = project(&db, ana.id, "live").await;
        let brief = project(&db, ana.id, "brief").await;
        let draft = project(&db, ana.id, "draft").await;
        let gone = project(&db, ana.id, "gone").await;
        let old = project(&db, ana.id, "old").await;
        publish(&db, live.id).await;
        publish(&db, brief.id).await;
        db.store.unpublish_project(brief.id).await.unwrap();
        publish(&db, gone.id).await;
        db.store.delete_project(gone.id).await.unwrap();
        publish(&db, old.id).await;
        db.store.unpublish_project(old.id).await.unwrap();
        let last = month.previous();
        dispatch!(&db.store, p => sqlx::query("UPDATE publications SET started_at = $1, ended_at = $2 WHERE project_id = $3")
            .bind(last.start()).bind(last.start() + Duration::days(3)).bind(old.id)
            .execute(p).await.unwrap().rows_affected());
        let _ = draft;

        // Bob (USD, basic): a site published, unpublished and published again is one site.
        let bob = user(&db, "bob@example.com").await;
        db.store
            .update_account(bob.id, "Bob", crate::language::Language::En, Usd)
            .await
            .unwrap();
        let shop = project(&db, bob.id, "shop").await;
        publish(&db, shop.id).await;
        db.store.unpublish_project(shop.id).await.unwrap();
        publish(&db, shop.id).await;

        // An agency business (BRL): its administrator pays the fee and the members' sites.
        let business = db.store.insert_business("Agência X").await.unwrap();
        dispatch!(&db.store, p => sqlx::query("UPDATE businesses SET plan = 'agency' WHERE id = $1")
            .bind(business).execute(p).await.unwrap().rows_affected());
        let carla = user(&db, "carla@example.com").await;
        let dan = user(&db, "dan@example.com").await;
        db.store
            .set_user_business(carla.id, Some(business), true, &Permissions::default())
            .await
            .unwrap();
        db.store
            .set_user_business(dan.id, Some(business), false, &Permissions::default())
            .await
            .unwrap();
        let client = project(&db, dan.id, "client").await;
        publish(&db, client.id).await;

        let posted = db.store.run_billing(month, at).await.unwrap();
        assert_eq!(posted, 6, "ana 3 sites, bob 1, carla's fee and dan's site");
        assert_eq!(
            db.store.run_billing(month, at).await.unwrap(),
            0,
            "a second run posts nothing"
        );

        assert_eq!(
            db.store.balance(ana.id, Brl).await.unwrap().minor(),
            -3 * 3000
        );
        assert_eq!(db.store.balance(bob.id, Usd).await.unwrap().minor(), -700);
        assert_eq!(db.store.balance(bob.id, Brl).await.unwrap().minor(), 0);
        assert_eq!(
            db.store.balance(carla.id, Brl).await.unwrap().minor(),
            -37000 - 2000
        );
        assert_eq!(db.store.balance(dan.id, Brl).await.unwrap().minor(), 0);
        let rows = db
            .store
            .transactions_between(ana.id, at, at + Duration::days(1))
            .await
            .unwrap();
        let mut described: Vec<&str> = rows.iter().map(|t| t.description.as_str()).collect();
        described.sort();
        assert_eq!(described, vec![format!("Site Loja — {month}"); 3]);
        assert!(
            rows.iter()
                .all(|t| t.amount.currency() == Brl && t.created_at == at)
        );
        assert!(db.store.has_transactions(ana.id).await.unwrap());

        // Next month only what is still on line is charged, and the fee again.
        let next = month.next();
        assert_eq!(
            db.store.run_billing(next, next.end()).await.unwrap(),
            4,
            "live, shop, carla's fee, client"
        );
        assert_eq!(
            db.store.balance(ana.id, Brl).await.unwrap().minor(),
            -4 * 3000
        );

        // Last month: only the old site, which was on line then (the accounts did not exist
        // yet, so no fee).
        assert_eq!(db.store.run_billing(last, last.end()).await.unwrap(), 1);
    }
);

dual_test!(
    async fn an_unknown_plan_or_currency_read_from_the_database_is_an_error(db: TestDb) {
        use crate::{billing::Plan, money::Currency};
        let store = &db.store;
        let read = |plan: &str, currency: &str| {
            let sql = format!("SELECT CAST('{plan}' AS TEXT), CAST('{currency}' AS TEXT)");
            async move {
                dispatch!(store, p => sqlx::query_as::<_, (Plan, Currency)>(trusted(&sql))
                    .fetch_one(p).await)
            }
        };
        assert_eq!(
            read("agency", "USD").await.unwrap(),
            (Plan::Agency, Currency::Usd)
        );
        for (plan, currency) in [("gold", "USD"), ("agency", "EUR")] {
            let err = read(plan, currency).await.unwrap_err();
            assert!(matches!(err, sqlx::Error::ColumnDecode { .. }), "{err:?}");
        }
        // What the store reads its plans with takes them back as they were written.
        let u = user(&db, "plan-row@example.com").await;
        assert_eq!(db.store.plan_of(&u).await.unwrap(), Plan::Basic);
        let business = db.store.insert_business("B").await.unwrap();
        db.store
            .set_user_business(u.id, Some(business), true, &Permissions::default())
            .await
            .unwrap();
        let u = db.store.user_by_id(u.id).await.unwrap();
        assert_eq!(db.store.plan_of(&u).await.unwrap(), Plan::Basic);
        db.store
            .set_business_plan(business, Plan::Agency)
            .await
            .unwrap();
        assert_eq!(u.plan, Plan::Basic, "the member's own plan stays");
        assert_eq!(db.store.plan_of(&u).await.unwrap(), Plan::Agency);
    }
);

dual_test!(
    async fn a_flood_of_simultaneous_orders_cannot_slip_past_a_cap(db: TestDb) {
        let u = user(&db, "flood@example.com").await;
        let other = user(&db, "quiet@example.com").await;
        let (a, b) = (
            project(&db, u.id, "flood-a").await,
            project(&db, u.id, "flood-b").await,
        );
        let q = project(&db, other.id, "quiet").await;
        let caps = OrderCaps {
            total: 6,
            project: 3,
            account: 4,
        };
        let since = now() - Duration::hours(1);
        let reserve = |project: ProjectId, i: usize| {
            let store = db.store.clone();
            async move {
                store
                    .reserve_acme_order(
                        &format!("n{project}-{i}.test"),
                        "node",
                        Some(project),
                        since,
                        caps,
                    )
                    .await
                    .unwrap()
            }
        };
        // Twenty handshakes at once for one project's names: three orders.
        let results = futures::future::join_all((0..20).map(|i| reserve(a.id, i))).await;
        assert_eq!(
            results.iter().filter(|r| r.is_none()).count(),
            3,
            "{results:?}"
        );
        assert!(results.iter().flatten().all(|c| *c == Cap::Project));
        // Its account's other project: one more, then the account is at its cap.
        let results = futures::future::join_all((0..20).map(|i| reserve(b.id, i))).await;
        assert_eq!(
            results.iter().filter(|r| r.is_none()).count(),
            1,
            "{results:?}"
        );
        assert!(results.iter().flatten().all(|c| *c == Cap::Account));
        // Another account still gets its first orders, up to the platform's cap.
        let results = futures::future::join_all((0..20).map(|i| reserve(q.id, i))).await;
        assert_eq!(
            results.iter().filter(|r| r.is_none()).count(),
            2,
            "{results:?}"
        );
        assert_eq!(db.store.acme_orders_since(since).await.unwrap(), 6);
    }
);

dual_test!(
    async fn refused_queries_are_input_and_only_a_lost_database_is_an_outage(db: TestDb) {
        let u = user(&db, "classify@example.com").await;
        let p = project(&db, u.id, "classify").await;
        // A submission for a project that does not exist: a foreign-key refusal.
        let orphan = NewSubmission {
            uid: "orphan".into(),
            project_id: ProjectId(p.id.get() + 1000),
            url: "/".into(),
            submit: String::new(),
            to: String::new(),
            subject: "x".into(),
            data: "<dl></dl>".into(),
            created_at: now(),
        };
        let err = db.store.insert_submission(&orphan, None).await.unwrap_err();
        assert_eq!(err.failure(), Failure::Input, "{err:?}");
        assert!(!err.is_outage());

        let c = db
            .store
            .insert_collection(p.id, "Itens", "itens", &json!({}))
            .await
            .unwrap();
        let mut data = serde_json::Map::new();
        data.insert(
            "1".into(),
            json!("um texto comprido o bastante para varrer"),
        );
        let rows: Vec<NewPost> = (0..20_000)
            .map(|i| NewPost {
                name: format!("Item {i}"),
                slug: format!("item-{i}"),
                data: data.clone(),
                created_at: now(),
            })
            .collect();
        db.store.insert_posts(c.id, &rows, u64::MAX).await.unwrap();
        // A NUL in a compared value: PostgreSQL refuses it as a data exception; SQLite
        // compares it and finds nothing.
        let nul = PostFilter {
            key: OrderKey::Name,
            op: FilterOp::Eq,
            value: "a\0b".into(),
        };
        match (
            &db.store,
            db.store
                .query_posts(c.id, Some(&nul), &[], 10, 0, LIST_QUERY_TIMEOUT)
                .await,
        ) {
            (Store::Postgres(_), Err(e)) => assert_eq!(e.failure(), Failure::Input, "{e:?}"),
            (Store::Sqlite(_), Ok(found)) => assert!(found.is_empty()),
            (_, other) => panic!("{other:?}"),
        }
        // A scan of 20,000 records given a millisecond: the statement is stopped by the
        // database and fails as a slow query, not an outage; the next one on the same pool
        // runs normally.
        let scan = PostFilter {
            key: OrderKey::Field(FieldId(1)),
            op: FilterOp::Contains,
            value: "nada disso".into(),
        };
        let order = [(OrderKey::Field(FieldId(1)), true)];
        let err = db
            .store
            .query_posts(
                c.id,
                Some(&scan),
                &order,
                10,
                0,
                std::time::Duration::from_millis(1),
            )
            .await
            .unwrap_err();
        assert_eq!(err.failure(), Failure::SlowQuery, "{err:?}");
        for _ in 0..10 {
            assert_eq!(
                db.store
                    .query_posts(c.id, None, &[], 1, 0, LIST_QUERY_TIMEOUT)
                    .await
                    .unwrap()
                    .len(),
                1
            );
        }
        // A pool that is gone is an outage.
        let lost = Store::connect(&db.url).await.unwrap();
        lost.close().await;
        let err = lost.ping().await.unwrap_err();
        assert_eq!(err.failure(), Failure::Outage, "{err:?}");
    }
);

dual_test!(
    async fn form_history_is_capped_and_mail_goes_only_to_confirmed_addresses(db: TestDb) {
        let u = user(&db, "dona@example.com").await;
        db.store.mark_email_confirmed(u.id).await.unwrap();
        let a = project(&db, u.id, "capped").await;
        let b = project(&db, u.id, "other").await;
        let sub = |project_id: ProjectId, i: i64, to: &str| NewSubmission {
            uid: format!("{project_id}-{i}-{to}"),
            project_id,
            url: "/contato".into(),
            submit: String::new(),
            to: to.into(),
            subject: format!("Contato {i}"),
            data: "<dl></dl>".into(),
            created_at: now() + Duration::seconds(i),
        };
        let mail = Some(Notification {
            subject: "Novo contato",
            text: "Olá",
            html: "<table><tr><th>nome</th><td>Ana</td></tr></table>",
            per_recipient_per_hour: 100,
        });
        for i in 0..5 {
            let stored = db
                .store
                .store_submission(&sub(a.id, i, "dona@example.com"), mail, 3)
                .await
                .unwrap();
            assert!(
                stored.new && stored.notified,
                "the owner's own address: {stored:?}"
            );
            assert_eq!(stored.trimmed, i64::from(i >= 3));
        }
        db.store
            .store_submission(&sub(b.id, 0, "dona@example.com"), None, 3)
            .await
            .unwrap();
        let (rows, total) = db.store.list_submissions(a.id, false, 10, 0).await.unwrap();
        assert_eq!(total, 3);
        let subjects: Vec<&str> = rows.iter().map(|r| r.subject.as_str()).collect();
        assert_eq!(
            subjects,
            ["Contato 2", "Contato 3", "Contato 4"],
            "oldest trimmed"
        );
        let usage = db.store.form_history_usage(a.id).await.unwrap();
        assert_eq!((usage.entries, usage.trimmed), (3, 2));
        assert!(usage.last_trimmed_at.is_some());
        assert_eq!(db.store.form_history_usage(b.id).await.unwrap().entries, 1);
        let queued = db.store.mail_to("dona@example.com").await.unwrap();
        assert_eq!(queued.len(), 5);
        assert_eq!(
            (queued[0].body.as_str(), queued[0].html_body.as_str()),
            ("Olá", "<table><tr><th>nome</th><td>Ana</td></tr></table>")
        );
        // A replay of a stored uid changes nothing.
        let again = db
            .store
            .store_submission(&sub(a.id, 4, "dona@example.com"), mail, 3)
            .await
            .unwrap();
        assert_eq!(again, StoredSubmission::default());
        db.store
            .delete_submissions(a.id, &[rows[0].id])
            .await
            .unwrap();
        assert_eq!(db.store.form_history_usage(a.id).await.unwrap().entries, 2);

        // Another address: stored, but no mail until its mailbox confirms.
        let stored = db
            .store
            .store_submission(&sub(a.id, 10, "vendas@loja.example"), mail, 100)
            .await
            .unwrap();
        assert!(stored.new && !stored.notified);
        db.store
            .request_form_recipient(a.id, "vendas@loja.example", "hash-1")
            .await
            .unwrap();
        let stored = db
            .store
            .store_submission(&sub(a.id, 11, "vendas@loja.example"), mail, 100)
            .await
            .unwrap();
        assert!(!stored.notified, "pending is not confirmed");
        // A new request replaces the token: the first link no longer works.
        db.store
            .request_form_recipient(a.id, "vendas@loja.example", "hash-2")
            .await
            .unwrap();
        let day = Duration::days(1);
        assert_eq!(
            db.store
                .confirm_form_recipient("hash-1", day)
                .await
                .unwrap(),
            None
        );
        // Not for another project either.
        let confirmed = db
            .store
            .confirm_form_recipient("hash-2", day)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((confirmed.project_id, confirmed.requests), (a.id, 2));
        assert_eq!(
            db.store
                .confirm_form_recipient("hash-2", day)
                .await
                .unwrap(),
            None
        );
        let stored = db
            .store
            .store_submission(&sub(a.id, 12, "vendas@loja.example"), mail, 100)
            .await
            .unwrap();
        assert!(stored.notified);
        let stored = db
            .store
            .store_submission(&sub(b.id, 12, "vendas@loja.example"), mail, 100)
            .await
            .unwrap();
        assert!(!stored.notified, "confirmed for the other project only");
        assert_eq!(
            db.store.mail_to("vendas@loja.example").await.unwrap().len(),
            1
        );
        assert_eq!(
            db.store
                .form_recipient_requests_since(u.id, now() - day)
                .await
                .unwrap(),
            1
        );
    }
);

dual_test!(
    async fn a_block_made_global_leaves_its_page_and_the_copies_on_other_pages(db: TestDb) {
        let s = &db.store;
        let a = user(&db, "a@example.com").await;
        let b = user(&db, "b@example.com").await;
        let other_site = project(&db, b.id, "site-b").await;
        let project = project(&db, a.id, "site-a").await;
        let header = json!({"uid": "h", "name": "Cabeçalho", "template": "<header>{{ brand }}</header>", "vars": [{"name": "brand", "type": "text", "value": "Loja"}]});
        let hero = json!({"uid": "x", "template": "<p>hero</p>"});
        let home = s.pages_of_project(project.id).await.unwrap().remove(0);
        let about = s.insert_page(project.id, "Sobre", "sobre").await.unwrap();
        for page in [&home, &about] {
            let changes = PageChanges {
                blocks: Some(json!([header, hero])),
                ..PageChanges::default()
            };
            s.update_page(page.id, &changes).await.unwrap();
        }
        // Another project's page cannot be named, and nothing is written.
        assert!(matches!(
            s.make_global_section(other_site.id, home.id, SectionKind::Header, "h")
                .await,
            Err(StoreError::NotFound)
        ));
        assert!(s.global_sections(other_site.id).await.unwrap().is_empty());
        // A uid the page does not have: nothing is written either.
        assert!(
            s.make_global_section(project.id, home.id, SectionKind::Header, "nope")
                .await
                .unwrap()
                .is_none()
        );
        assert!(s.global_sections(project.id).await.unwrap().is_empty());

        let page = s
            .make_global_section(project.id, home.id, SectionKind::Header, "h")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(page.blocks.0, json!([hero]));
        assert_eq!(
            s.page_by_id(about.id).await.unwrap().blocks.0,
            json!([hero])
        );
        let sections = s.global_sections(project.id).await.unwrap();
        let stored = sections.header.unwrap();
        assert_eq!(stored["uid"], "global-header");
        assert_eq!(stored["vars"][0]["value"], "Loja");
        assert!(sections.footer.is_none());

        let renamed = json!({"uid": "global-header", "template": "<header>Nova</header>"});
        s.save_global_section(project.id, SectionKind::Header, &renamed)
            .await
            .unwrap();
        assert_eq!(
            s.global_sections(project.id).await.unwrap().header,
            Some(renamed)
        );
        s.delete_global_section(project.id, SectionKind::Header)
            .await
            .unwrap();
        assert!(matches!(
            s.delete_global_section(project.id, SectionKind::Header)
                .await,
            Err(StoreError::NotFound)
        ));
    }
);

dual_test!(
    async fn concurrent_transactions_that_read_then_write_wait_for_each_other(db: TestDb) {
        // Each deletion reads (is the category empty?) and then writes. On SQLite a deferred
        // transaction doing that beside another writer failed at once with SQLITE_BUSY (a 503
        // for the caller); write transactions now take the lock first and wait their turn.
        let mut ids = Vec::new();
        for i in 0..24 {
            let name = format!("Categoria {i}");
            let c = CategoryInput {
                seed_key: None,
                name: &name,
                icon: "",
                sort_order: i,
            };
            ids.push(db.store.save_block_category(None, &c).await.unwrap().id);
        }
        let tasks: Vec<_> = ids
            .iter()
            .map(|&id| {
                let store = db.store.clone();
                tokio::spawn(async move { store.delete_block_category(id).await })
            })
            .collect();
        for task in tasks {
            task.await
                .unwrap()
                .expect("no deletion fails for another's lock");
        }
        assert!(db.store.block_categories().await.unwrap().is_empty());
    }
);

fn live_site(slug: &str) -> LiveSite<'_> {
    LiveSite {
        slug,
        files: 6,
        bytes: 9_000,
    }
}

dual_test!(
    async fn live_sites_are_what_the_edge_reads_and_are_written_all_or_nothing(db: TestDb) {
        let owner = user(&db, "gen@example.com").await;
        let ids = db
            .store
            .insert_live_sites(owner.id, &[live_site("gen-a"), live_site("gen-b")])
            .await
            .unwrap();
        assert_eq!(ids.len(), 2);
        for (ids, slug) in ids.iter().zip(["gen-a", "gen-b"]) {
            let row = db.store.site_by_slug(slug).await.unwrap().expect(slug);
            assert_eq!(row.project_id, ids.project_id);
            assert!(row.is_published);
            assert_eq!(row.active_deploy_id, Some(ids.deploy_id));
            assert_eq!(
                row.manifest_key.as_deref(),
                Some(crate::manifest::manifest_key(ids.project_id, ids.deploy_id).as_str())
            );
            let deploy = db.store.deploy_by_id(ids.deploy_id).await.unwrap();
            assert_eq!((deploy.status.code(), deploy.files), ("ready", 6));
        }
        // A site taken half-way through a batch: nothing of that batch is left behind.
        let err = db
            .store
            .insert_live_sites(owner.id, &[live_site("gen-c"), live_site("gen-a")])
            .await
            .unwrap_err();
        assert!(
            // SQLite names the first of the site's unique columns it checks, PostgreSQL the slug.
            matches!(err, StoreError::Conflict(_)),
            "{err:?}"
        );
        assert!(db.store.site_by_slug("gen-c").await.unwrap().is_none());
    }
);
