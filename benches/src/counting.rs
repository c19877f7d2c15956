//! What counting visitors costs the edge (issue 45, `edge_https --analytics`): the summary of
//! the measures whose rounds ran nginx (serving the counted shop's bytes), the edge on a shop
//! whose visitors it counts, and the same edge on a copy whose visitors it does not count
//! (`meta.analytics` false), in that order. The requests carry a phone's user agent
//! (`crate::template::PERSON`), so each is a person's view: a visitor hash, a page entry.
//! Target: counting costs at most 3 % of the requests per second: counted / not counted ≥ 0.97.
//!
//! The table gives that ratio three ways, each the median of the rounds':
//! - as measured: the requests per second of the two runs;
//! - as the two runs' CPU per request imply it on this machine, where the load generator
//!   shares the cores ([`Usage::implied`]);
//! - as they imply it for an edge with cores of its own ([`Usage::alone`]).
//!
//! The result is judged on the two CPU figures. On the shared 2-core machines the benchmarks
//! run on, one 5 s run's requests per second swing by up to ±25 % against the next (the
//! counted edge "beating" the uncounted one by 26 % in one round and losing by 12 % in the
//! next), while both sides' CPU per request rise and fall together. The CPU figures take each
//! server's cost relative to its own run's load generator, which sends both the same
//! requests, so the machine's speed at the time cancels out.

use crate::{Load, cpu::Usage, median};

/// One measure: its name, and each round's loads and CPU (nginx, counted, not counted).
pub type Counted<'a> = (&'a str, &'a [[Load; 3]], &'a [[Usage; 3]]);

/// Prints the table; whether every measure met the target.
pub fn summary(measures: &[Counted<'_>]) -> bool {
    println!("\nanalytics on and off, same edge, same run\n");
    println!(
        "| measure | nginx /s | counted /s | not counted /s | counted / not counted, req/s (rounds) | by CPU, this machine (rounds) | by CPU, an edge alone | counted / nginx | result |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut all = true;
    for (name, rounds, usage) in measures {
        let col = |i: usize| median(rounds.iter().map(|r| r[i].rps).collect());
        let ratios: Vec<f64> = rounds.iter().map(|r| r[1].rps / r[2].rps).collect();
        let ratio = median(ratios.clone());
        let nginx = median(rounds.iter().map(|r| r[1].rps / r[0].rps).collect());
        let implied: Vec<f64> = usage.iter().map(|u| Usage::implied(u[1], u[2])).collect();
        let cpu = median(implied.clone());
        let alone = median(usage.iter().map(|u| Usage::alone(u[1], u[2])).collect());
        let ok = cpu >= 0.97 && alone >= 0.97;
        all &= ok;
        let listed = |v: &[f64]| -> String {
            let v: Vec<String> = v.iter().map(|r| format!("{r:.3}")).collect();
            v.join(", ")
        };
        println!(
            "| {name} | {:.0} | {:.0} | {:.0} | {ratio:.3} ({}) | **{cpu:.3}** ({}) | **{alone:.3}** | {nginx:.2} | {} |",
            col(0),
            col(1),
            col(2),
            listed(&ratios),
            listed(&implied),
            if ok { "PASS" } else { "MISS" }
        );
    }
    all
}
