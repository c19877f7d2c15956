//! The page renderer: any block template (owner code) compiles or fails with an error, and
//! rendering ends within the fuel limit without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vitrine_shared::render::{Block, CompiledPage, RenderContext};

fuzz_target!(|data: &[u8]| {
    let Ok(template) = std::str::from_utf8(data) else {
        return;
    };
    let blocks = vec![Block {
        uid: "fuzz".into(),
        template: template.into(),
        ..Block::default()
    }];
    if let Ok(page) = CompiledPage::compile(&blocks) {
        let _ = page.render(&RenderContext::default());
    }
});
