//! The aggregates on SQLite and PostgreSQL: additive flushes from two edges, the exact
//! threshold and its sketch, the zero-filled days, pruning.

use chrono::{NaiveDate, Utc};

use super::*;
use crate::{
    dual_test,
    store::tests::{project, user},
    testing::TestDb,
};

fn visitor(v: i64, source: &str) -> VisitorSeen {
    VisitorSeen {
        visitor: v,
        minute: Utc::now().timestamp() / 60,
        source: source.into(),
        device: "mobile".into(),
        ..VisitorSeen::default()
    }
}

fn day(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

dual_test!(
    async fn two_edges_add_up_and_the_range_counts_distinct_visitors(db: TestDb) {
        let owner = user(&db, "an@example.com").await;
        let p = project(&db, owner.id, "an").await;
        let edge = |visitors: &[i64]| SiteDay {
            views: visitors.len() as i64,
            bots: 1,
            whatsapp: 1,
            visitors: visitors.iter().map(|&v| visitor(v, "google.com")).collect(),
            pages: vec![
                ("/".into(), true, visitors.len() as i64),
                ("/x".into(), false, 1),
            ],
            page_visitors: visitors.iter().map(|&v| ("/".to_string(), v)).collect(),
            ..SiteDay::new(p.id, day("2026-11-01"))
        };
        db.store
            .add_analytics(&edge(&[1, 2, 3]), 100)
            .await
            .unwrap();
        db.store.add_analytics(&edge(&[3, 4]), 100).await.unwrap();
        let r = db
            .store
            .analytics_report(p.id, day("2026-10-31"), day("2026-11-02"), Utc::now(), true)
            .await
            .unwrap();
        assert_eq!((r.views, r.visitors, r.bots), (5, 4, 2));
        assert_eq!(r.days.len(), 3);
        assert_eq!(
            (r.days[0].views, r.days[1].views, r.days[1].visitors),
            (0, 5, 4)
        );
        assert_eq!(
            r.pages,
            vec![AnalyticsPage {
                path: "/".into(),
                views: 5,
                visitors: 4
            }]
        );
        assert_eq!(
            r.not_found,
            vec![AnalyticsNotFound {
                path: "/x".into(),
                views: 2
            }]
        );
        assert_eq!(
            r.referrers,
            vec![AnalyticsReferrer {
                source: "google.com".into(),
                visitors: 4
            }]
        );
        assert_eq!(r.conversions.whatsapp, 2);

        // Past the threshold the day goes on in its sketch, seeded with the exact ones.
        let mut big = edge(&[]);
        big.visitors = (10..60).map(|v| visitor(v * 7919, "direct")).collect();
        db.store.add_analytics(&big, 10).await.unwrap();
        let r = db
            .store
            .analytics_report(p.id, day("2026-11-01"), day("2026-11-01"), Utc::now(), true)
            .await
            .unwrap();
        assert!((52..=56).contains(&r.visitors), "{}", r.visitors);

        assert!(db.store.prune_analytics(day("2026-11-02")).await.unwrap() > 0);
        let r = db
            .store
            .analytics_report(p.id, day("2026-11-01"), day("2026-11-01"), Utc::now(), true)
            .await
            .unwrap();
        assert_eq!((r.views, r.visitors), (0, 0));
        // One key for every server that asks.
        assert_eq!(
            db.store.analytics_key().await.unwrap(),
            db.store.analytics_key().await.unwrap()
        );
    }
);
