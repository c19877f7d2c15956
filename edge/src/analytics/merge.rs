//! What the flusher does with the shards' counts: merges them per site and day, and turns a
//! site-day into the row the store adds.

use chrono::NaiveDate;
use vitrine_shared::{analytics::classify, ids::ProjectId, store::SiteDay};

use super::{DayCounts, Days_, MAX_VISITORS, days_table};

/// What a site-day's counts are reckoned to take ([`super::memory`]): its share of the table of
/// site-days (one entry at the table's load) and its detail.
pub(super) fn reckon(c: &DayCounts) -> usize {
    days_table(8) / 7 + c.detail.as_ref().map_or(0, |d| d.bytes())
}

pub(super) fn merge(into: &mut Days_, from: Days_) {
    for (k, c) in from {
        let d = into.entry(k).or_default();
        d.views += c.views;
        d.bots += c.bots;
        for i in 0..3 {
            d.taps[i] += c.taps[i];
        }
        let Some(c) = c.detail else { continue };
        let Some(d) = d.detail.as_mut() else {
            d.detail = Some(c);
            continue;
        };
        for (h, v) in c.visitors {
            if let Some(held) = d.visitors.get_mut(&h) {
                held.minute = held.minute.max(v.minute);
                if held.source == classify::DIRECT {
                    held.source = v.source;
                }
                // A value is the first one seen, wherever it was seen: a request without
                // it (a later page sent with no Accept-Language) leaves it as it was.
                for (mine, theirs) in [
                    (&mut held.utm_source, v.utm_source),
                    (&mut held.utm_medium, v.utm_medium),
                    (&mut held.utm_campaign, v.utm_campaign),
                    (&mut held.language, v.language),
                ] {
                    if mine.is_empty() {
                        *mine = theirs;
                    }
                }
            } else if d.visitors.len() < MAX_VISITORS {
                d.visitors.insert(h, v);
            }
        }
        for (p, n) in c.pages {
            *d.pages.entry(p).or_default() += n;
        }
        d.page_visitors.extend(c.page_visitors);
    }
}

pub(super) fn site_day(project_id: ProjectId, day: NaiveDate, c: &DayCounts) -> SiteDay {
    let mut row = SiteDay {
        views: c.views,
        bots: c.bots,
        whatsapp: c.taps[0],
        phone: c.taps[1],
        email: c.taps[2],
        ..SiteDay::new(project_id, day)
    };
    if let Some(d) = &c.detail {
        row.visitors = d.visitors.values().cloned().collect();
        row.pages = d
            .pages
            .iter()
            .map(|(p, n)| (p.path.to_string(), p.found, *n))
            .collect();
        row.page_visitors = d
            .page_visitors
            .iter()
            .map(|p| (p.path.to_string(), p.visitor))
            .collect();
    }
    row
}
