//! What counting visitors costs the edge (issue 45, `edge_https --analytics`): the summary of
//! the measures whose rounds ran nginx (serving the counted shop's bytes), the edge on a shop
//! whose visitors it counts, and the same edge on a copy whose visitors it does not count
//! (`meta.analytics` false), in that order. The requests carry a phone's user agent
//! (`crate::template::PERSON`), so each is a person's view: a visitor hash, a page entry.
//! Target: counting costs at most 3 % of the requests per second, the median of the rounds'
//! ratios counted / not counted ≥ 0.97.

use crate::{Load, median};

/// Prints the table; whether every measure met the target.
pub fn summary(measures: &[(&str, &[[Load; 3]])]) -> bool {
    println!("\nanalytics on and off, same edge, same run\n");
    println!(
        "| measure | nginx /s | counted /s | not counted /s | counted / not counted (rounds) | counted / nginx | result |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut all = true;
    for (name, rounds) in measures {
        let col = |i: usize| median(rounds.iter().map(|r| r[i].rps).collect());
        let ratios: Vec<f64> = rounds.iter().map(|r| r[1].rps / r[2].rps).collect();
        let ratio = median(ratios.clone());
        let nginx = median(rounds.iter().map(|r| r[1].rps / r[0].rps).collect());
        let ok = ratio >= 0.97;
        all &= ok;
        let listed: Vec<String> = ratios.iter().map(|r| format!("{r:.3}")).collect();
        println!(
            "| {name} | {:.0} | {:.0} | {:.0} | **{ratio:.3}** ({}) | {nginx:.2} | {} |",
            col(0),
            col(1),
            col(2),
            listed.join(", "),
            if ok { "PASS" } else { "MISS" }
        );
    }
    all
}
