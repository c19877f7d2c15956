//! The fuzz target `template`'s invariant (see `fuzz/`), on generated inputs in every test
//! run: any block template (owner code) compiles or fails with an error, and rendering ends
//! within the fuel limit without panicking.

use super::*;
use proptest::prelude::*;

/// Templates made of MiniJinja syntax fragments, plus any text at all.
fn templates() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(
            prop_oneof![
                Just("{{ "),
                Just(" }}"),
                Just("{% for x in range(99999) %}"),
                Just("{% endfor %}"),
                Just("{% if "),
                Just(" %}"),
                Just("{% endif %}"),
                Just("{% set a = "),
                Just("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}"),
                Just("site.name"),
                Just("page"),
                Just("post.field('x')"),
                Just("x | background"),
                Just("x | unit"),
                Just("x | padding"),
                Just("x | lines"),
                Just("[1,2,3]"),
                Just("'a' ~ 'b'"),
                Just("<div>"),
                Just("</div>"),
                Just("{#"),
                Just("#}"),
                Just("x"),
                Just("1"),
                Just("("),
                Just(")"),
            ],
            0..24,
        )
        .prop_map(|parts| parts.concat()),
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_template_compiles_or_fails_and_renders_within_its_fuel(template in templates()) {
        let blocks = vec![Block {
            uid: "prop".into(),
            template,
            ..Block::default()
        }];
        if let Ok(page) = CompiledPage::compile(&blocks) {
            let _ = page.render(&RenderContext::default());
        }
    }
}
